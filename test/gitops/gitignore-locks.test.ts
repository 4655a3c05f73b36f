// The .gitignore that `init` writes keeps the secrets state in git and leaves out the files a run
// holds only while it works: the state's temporary file and its locks (a lock committed after a
// killed run made the next apply send its changes and then fail to record them; a review of
// round 19). Checked by git itself.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

const cwd = mkdtempSync(join(tmpdir(), 'scansync-gitignore-locks-'))
afterAll(() => rmSync(cwd, { recursive: true, force: true }))

const ignored = (path: string): boolean => {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd })
    return true
  } catch {
    return false
  }
}

it('init: the locks and the temporary file are ignored, the state is not', async () => {
  execFileSync('git', ['init', '-q'], { cwd })
  expect((await runCli(['init', 'config', '-q'], { cwd, env: {} })).code).toBe(0)
  for (const lock of ['state.json.lock', 'state.json.lock.break', 'state.json.create.lock', 'state.json.tmp']) expect(ignored(`config/.scansync/${lock}`), lock).toBe(true)
  expect(ignored('config/.scansync/state.json')).toBe(false)
})
