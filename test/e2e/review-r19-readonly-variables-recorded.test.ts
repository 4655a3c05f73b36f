// Review round 19 (the secrets state's record of variables' values): an apply records the values a
// resource takes from variables even when the state records them already. In a read-only checkout,
// every apply of such a resource (here a scan profile changed beside a label from a variable) then
// ended with "Note: the secrets state could not be written …: it does not record the values this
// apply took from variables", though they were recorded, where the README says an apply with none
// to record leaves the file as it is. A value recorded already is not recorded again.
import { spawn } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { BIN, collectOutput } from '../helpers/cli.js'
import { cli, emulator, envFor, tempdir } from './helpers.js'

const LABEL = { ENV: 'staging-eu-4Rt7' }

it('an apply whose values from variables are recorded already writes nothing, and says nothing of it, in a read-only checkout', async () => {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    labels: [{name: "\${ENV}"}]\n` })
  const first = await cli(em, dir, ['apply', '--auto-approve'], LABEL)
  expect(first.code, first.stderr).toBe(0)
  const statePath = join(dir, '.scansync', 'state.json')
  const state = readFileSync(statePath, 'utf8')
  expect(state).toContain('variables[#')

  writeFileSync(join(dir, 'c.yaml'), `targets:\n  - id: 7QwErTy2UiOp\n    labels: [{name: "\${ENV}"}]\n    scan_profile: normal\n`)
  chmodSync(dir, 0o755)
  chmodSync(statePath, 0o644)
  chmodSync(join(dir, '.scansync'), 0o555)
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
  const child = spawn(process.execPath, [BIN, 'apply', '.', '--auto-approve'], { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1', ...envFor(em), ...LABEL }, ...asOther })
  child.stdin.end()
  const run = await collectOutput(child).finally(() => chmodSync(join(dir, '.scansync'), 0o755))
  expect(run.stdout).toContain('Apply: 1 applied, 0 failed, 0 not applied, 0 unchanged.')
  expect(run.stderr).not.toContain('could not be written')
  expect(run.code).toBe(0)
  expect(readFileSync(statePath, 'utf8')).toBe(state)
  expect((await cli(em, dir, ['plan', '--detailed-exitcode'], LABEL)).code).toBe(0)
})
