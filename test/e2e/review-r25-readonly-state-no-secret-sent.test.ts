// A CI job whose checkout is read-only (or whose secrets state is a link a cache put there) could
// not apply anything to a target that holds a secret the service hides, though the change sent no
// secret: `apply` of a renamed target (`site.name` alone, a PATCH of 37 bytes) refused with "this
// apply sends secrets it must record there", nothing sent, exit 1. The README promises that an
// apply with nothing to record is no error in a read-only folder. The check before the first
// request now asks what the requests carry, as the record after the answer does.
import { readFileSync, renameSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS, tempdir, writes } from './helpers.js'

/** The state moved elsewhere and linked back: a place this run cannot write (even as root). */
function unwritableState(state: string): string {
  const elsewhere = join(tempdir(), 'state.json')
  renameSync(state, elsewhere)
  symlinkSync(elsewhere, state)
  return elsewhere
}

it('applies a change that carries no secret to a target holding hidden secrets, though the state cannot be written', async () => {
  const { em, dir, state } = await appliedWithState()
  const elsewhere = unwritableState(state)
  const before = readFileSync(elsewhere, 'utf8')
  em.mutate('target', '2DZkoZH8WMEM', { site: { name: 'Renamed by hand' } })
  em.clearRequests()
  const run = await cli(em, dir, ['apply', '--auto-approve', '--kind', 'target'], EXAMPLE_SECRETS)
  expect(run.stderr).not.toContain('this apply sends secrets')
  expect(run.code).toBe(0)
  expect(run.stdout).toContain('site.name: "Renamed by hand" -> "Shop (production)"')
  expect(writes(em).map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)).toEqual(['PATCH /targets/2DZkoZH8WMEM/ {"site":{"name":"Shop (production)"}}'])
  expect(readFileSync(elsewhere, 'utf8')).toBe(before)
  for (const secret of Object.values(EXAMPLE_SECRETS)) expect(run.stdout + run.stderr).not.toContain(secret)
})

it('still refuses before its first request when the change sends a hidden secret', async () => {
  const { em, dir, state } = await appliedWithState()
  unwritableState(state)
  em.clearRequests()
  const run = await cli(em, dir, ['apply', '--auto-approve', '--kind', 'target'], { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'rotated-Secret-5c2e7b' })
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('this apply sends secrets it must record there')
  expect(run.stderr).toContain('Nothing was sent.')
  expect(writes(em)).toEqual([])
})
