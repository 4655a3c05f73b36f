// The help examples of `plan --out` and `apply --plan` save to a file the `.gitignore` that
// `init` writes ignores (`*.plan.json`): one copied from the help was `plan.json`, which the
// repository would then commit by accident (review of round 19).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

const cwd = mkdtempSync(join(tmpdir(), 'scansync-help-plan-file-'))
afterAll(() => rmSync(cwd, { recursive: true, force: true }))

/** A .gitignore line as git reads a simple one: `*` any run of characters, no slash. */
const ignores = (patterns: string[], name: string): boolean =>
  patterns.some((p) => !p.startsWith('#') && p !== '' && new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(name))

it('every saved-plan file name in the help examples is ignored by the .gitignore init writes', async () => {
  expect((await runCli(['init', 'config', '-q'], { cwd, env: {} })).code).toBe(0)
  const patterns = readFileSync(join(cwd, 'config', '.gitignore'), 'utf8').split('\n').map((l) => l.trim())
  const names: string[] = []
  for (const command of ['plan', 'apply']) {
    const { stdout } = await runCli([command, '--help'])
    for (const match of stdout.matchAll(/(?:--out|--plan) (\S+\.json)\b/g)) names.push(match[1]!)
  }
  expect(names.length).toBeGreaterThan(0)
  for (const name of names) expect(ignores(patterns, name), name).toBe(true)
})
