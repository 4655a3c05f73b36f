// An apply that creates a target takes the creation lock beside the state. A lock left by an apply
// that died (a cancelled CI job: no refresh for longer than STALE_LOCK_MS) is broken and taken at
// once; no other apply is running. Before, the apply said it was "Waiting for another apply of this
// configuration, which is creating targets" all the same, as if two applies ran at once.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('a creation lock left by an apply that died', () => {
  it('is taken without saying that the apply waits for another one; the target is created and the lock released', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': 'targets:\n  - site: {name: New app, url: "https://newapp.example.com/"}\n' })
    mkdirSync(join(dir, '.scansync'), { recursive: true })
    const lock = join(dir, '.scansync', 'state.json.create.lock')
    writeFileSync(lock, '4242 an apply that was killed')
    // Last refreshed an hour ago: far older than any lock a running apply keeps fresh.
    const anHourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(lock, anHourAgo, anHourAgo)
    const run = await cli(em, dir, ['apply', '.', '--auto-approve'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('Waiting for another apply')
    expect(run.stdout).toMatch(/created/)
    expect(existsSync(lock)).toBe(false)
  })
})
