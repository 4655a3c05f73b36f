// Review round 17 (failures): an apply that creates a target, with the secrets state's folder not
// writable (a read-only checkout, a .scansync left by another user). The lock that keeps two applies
// from creating one target twice cannot be taken: the apply refuses with words saying so, nothing
// sent. It printed "unexpected failure: EACCES … please report it", as for a bug. And an apply
// whose changes hold no secret the service hides has nothing to record: it leaves the state alone
// and exits 0; it failed (exit 1) saying secrets would be planned again as "not yet tracked".
import { spawn } from 'node:child_process'
import { chmodSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { BIN, collectOutput } from '../helpers/cli.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `targets:
  - site: {name: Shop (new), url: "https://new.example.com/"}
`

/** `apply ARGS` in `dir`, as a user for whom `dir/.scansync` is read-only. */
async function applyReadOnly(dir: string, em: Awaited<ReturnType<typeof emulator>>, args: string[]) {
  chmodSync(dir, 0o755)
  chmodSync(join(dir, '.scansync'), 0o555)
  // Root writes anywhere: the run is then another user's, for whom the folder is read-only.
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
  const child = spawn(process.execPath, [BIN, 'apply', ...args], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...envFor(em) }, ...asOther })
  child.stdin.end()
  try {
    return await collectOutput(child)
  } finally {
    chmodSync(join(dir, '.scansync'), 0o755)
  }
}

it('an apply with no secret to record, the state folder not writable: applied, exit 0, the state left as it was', async () => {
  const em = await emulator({ obfuscate: true })
  const state = '{"format_version":1,"resources":{}}\n'
  const dir = tempdir({ 'config.yaml': 'assets:\n  - id: 9fGh2Kd8LmQz\n    state: ARCHIVED\n', '.scansync/state.json': state })
  const run = await applyReadOnly(dir, em, ['.', '--auto-approve'])
  expect(run.stdout).toContain('Apply: 1 applied, 0 failed, 0 not applied, 0 unchanged.')
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  expect(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')).toBe(state)
  expect(em.requests().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /discovery/assets/9fGh2Kd8LmQz/'])
})

it('a creation with the state folder not writable is refused in clear words, nothing sent', async () => {
  const em = await emulator()
  const dir = tempdir({ 'config.yaml': CONFIG, '.scansync/state.json': '{"format_version":1,"resources":{}}\n' })
  const run = await applyReadOnly(dir, em, ['.', '--auto-approve'])
  expect(run.code).toBe(1)
  expect(run.stderr).not.toContain('unexpected failure')
  expect(run.stderr).toMatch(/^Error: cannot take the lock .*\.scansync\/state\.json\.create\.lock \(EACCES\) that keeps two applies from creating one target twice; nothing was sent\./m)
  expect(em.requests().filter((r) => r.method !== 'GET')).toHaveLength(0)
})
