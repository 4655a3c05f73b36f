// Review round 21 (the plan passes, the apply fails): a target declared without id whose URL no
// live target has, with `site.name: ""` (or a fallback left empty, `${NAME:-}`), was planned as a
// creation, and the apply's POST /targets/ was refused by the service ("site.name: This field may
// not be blank."): the creation needs a name that is not empty (target-create.request.schema.json).
// The plan now says so at the YAML line of site.name, and nothing is sent.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const writes = (em: Awaited<ReturnType<typeof emulator>>) => em.requests().filter((r) => r.method !== 'GET')

describe('a target to create with an empty site.name', () => {
  it('is refused by plan and apply at the line of site.name, and nothing is sent', async () => {
    const em = await emulator()
    const dir = tempdir({ 'a.yaml': 'targets:\n  - site:\n      name: ""\n      url: https://blank.example.com/\n' })
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(em, dir, args)
      expect(run.code, run.stdout + run.stderr).toBe(1)
      expect(run.stderr).toContain('a.yaml:3:13: target "https://blank.example.com/": no live target has this URL, so it would be created, and a target to create needs a site.name that is not empty')
    }
    expect(writes(em)).toHaveLength(0)
  })

  it('from an empty fallback too; a name that is not empty is still created, and a live target with the URL needs none', async () => {
    const em = await emulator()
    const fallback = await cli(em, tempdir({ 'a.yaml': 'targets:\n  - site: {name: "${APP_NAME:-}", url: "https://blank.example.com/"}\n' }), ['plan'])
    expect(fallback.code, fallback.stdout + fallback.stderr).toBe(1)
    expect(fallback.stderr).toContain('a target to create needs a site.name that is not empty')
    const named = await cli(em, tempdir({ 'a.yaml': 'targets:\n  - site: {name: "x", url: "https://blank.example.com/"}\n' }), ['apply', '--auto-approve'])
    expect(named.code, named.stdout + named.stderr).toBe(0)
    expect(writes(em).map((r) => r.method)).toEqual(['POST'])
    const existing = await cli(em, tempdir({ 'a.yaml': 'targets:\n  - site: {name: "", url: "https://shop.example.com/"}\n' }), ['plan', '--format', 'json'])
    expect(existing.code, existing.stderr).toBe(0)
    expect(JSON.parse(existing.stdout).changes.map((c: { action: string; id: string }) => `${c.action} ${c.id}`)).toEqual(['update 2DZkoZH8WMEM'])
  })
})
