// Review round 26 (every error message, read once): `--state .scansync` (the folder the README
// says the state lives in, not the file in it) was refused with 'the secrets state … is not a
// regular file (a directory, a device, a pipe or a socket); move it away to start over': moving
// that folder away loses every record in its state.json, and the next apply sends every secret
// again. A directory is now named as such, with the file to pass (the state.json in it when there
// is one), and no advice to move it.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apply, appliedWithState, plan } from '../e2e/helpers.js'

describe('--state naming a directory', () => {
  it('plan and apply say it is a directory and name the state file in it; nothing sent, nothing said of moving it away', async () => {
    const { em, dir } = await appliedWithState()
    const before = em.requests().length
    const folder = join(dir, '.scansync')
    for (const run of [() => plan(em, dir, { state: '.scansync' }), () => apply(em, dir, { state: '.scansync' })]) {
      const { code, err } = await run()
      expect(code).toBe(1)
      expect(err).toContain(`the secrets state ${folder} is a directory, not the state file`)
      expect(err).toContain(`--state ${join(folder, 'state.json')}`)
      expect(err).not.toContain('move it away')
    }
    expect(em.requests().slice(before).filter((r) => r.method !== 'GET')).toEqual([])
  }, 120_000)

  it('a directory without a state file in it: names what --state takes', async () => {
    const { em, dir } = await appliedWithState()
    const { code, err } = await plan(em, dir, { state: 'targets' })
    expect(code).toBe(1)
    expect(err).toContain(`the secrets state ${join(dir, 'targets')} is a directory, not the state file`)
    expect(err).toContain('.scansync/state.json')
    expect(err).not.toContain('move it away')
  }, 120_000)
})
