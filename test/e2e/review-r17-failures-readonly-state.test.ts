// Review round 17 (failures): an apply that creates a target, with the secrets state's folder not
// writable (a read-only checkout, a .scansync left by another user). The lock that keeps two applies
// from creating one target twice cannot be taken: the apply refuses with words saying so, nothing
// sent. It printed "unexpected failure: EACCES … please report it", as for a bug.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { BIN, collectOutput } from '../helpers/cli.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `targets:
  - site: {name: Shop (new), url: "https://new.example.com/"}
`

it('a creation with the state folder not writable is refused in clear words, nothing sent', async () => {
  const em = await emulator()
  const dir = tempdir({ 'config.yaml': CONFIG, '.scansync/state.json': '{"format_version":1,"resources":{}}\n' })
  chmodSync(dir, 0o755)
  chmodSync(join(dir, '.scansync'), 0o555)
  // Root writes anywhere: the run is then another user's, for whom the folder is read-only.
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
  const child = spawn(process.execPath, [BIN, 'apply', '.', '--auto-approve'], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...envFor(em) }, ...asOther })
  child.stdin.end()
  const run = await collectOutput(child)
  chmodSync(join(dir, '.scansync'), 0o755)
  expect(run.code).toBe(1)
  expect(run.stderr).not.toContain('unexpected failure')
  expect(run.stderr).toMatch(/^Error: cannot take the lock .*\.scansync\/state\.json\.create\.lock \(EACCES\) that keeps two applies from creating one target twice; nothing was sent\./m)
  expect(em.requests().filter((r) => r.method !== 'GET')).toHaveLength(0)
})
