// A header or cookie the service holds twice under one name, which the YAML no longer declares:
// the apply sends the list without either copy, so the plan must show both copies going, not one
// (the second copy hid the first, which was removed without being shown).
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

interface Field {
  path: string
  before: unknown
  after: unknown
}

it('plan shows every live copy of an undeclared name the apply removes', async () => {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM') as { site: Record<string, unknown> }
  shop.site.cookies = [
    { name: 'lang', value: 'en', value_is_sensitive: false },
    { name: 'tracking', value: 'first-copy', value_is_sensitive: false },
    { name: 'tracking', value: 'second-copy', value_is_sensitive: false },
  ]
  const em = await emulator({ seed })
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      cookies:\n        - {name: lang, value: en}\n' })

  const planned = await cli(em, dir, ['plan', '.', '--format', 'json'])
  expect(planned.code, planned.stderr).toBe(0)
  const fields = (JSON.parse(planned.stdout) as { changes: Array<{ fields: Field[] }> }).changes.flatMap((c) => c.fields)
  expect(fields).toHaveLength(1)
  expect(fields[0]).toMatchObject({ path: 'site.cookies[tracking]', after: null })
  expect(fields[0]!.before).toEqual([
    expect.objectContaining({ name: 'tracking', value: 'first-copy' }),
    expect.objectContaining({ name: 'tracking', value: 'second-copy' }),
  ])
  const text = await cli(em, dir, ['plan', '.'])
  expect(text.stdout).toContain('first-copy')
  expect(text.stdout).toContain('second-copy')

  const applied = await cli(em, dir, ['apply', '.', '--auto-approve'])
  expect(applied.code, applied.stderr).toBe(0)
  const patch = em.requests().find((r) => r.method === 'PATCH')
  expect(patch?.body).toEqual({ site: { cookies: [expect.objectContaining({ name: 'lang', value: 'en' })] } })
})
