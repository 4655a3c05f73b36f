// Review round 24 (hostile values in CI outputs): the comment import writes above a resource with
// secrets names each secret's field as plans print it, `site.headers[Authorization].value`, the
// list key being the item's name on the service. A header named by hand with terminal sequences,
// "X\e[31m\e[1G\e[2K  # all fine", kept them in the comment, raw, on stdout and in the file
// (`--out`): on a terminal the line was painted red, erased and overwritten ("  # all fine").
// Colour and cursor sequences are kept on stdout only as scansync's own; a name from the service is
// printed as plans print it, its controls written `\u001b`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir } from './helpers.js'

const HEADER = 'X\u001b[31m\u001b[1G\u001b[2K  # all fine'
const SECRET = 'header-secret-ddd-4'

describe('import: a secret field whose list key holds terminal sequences', () => {
  it('writes no escape character in the comment, on stdout or in the file, and plans clean', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!.site!.headers = [{ name: HEADER, value: SECRET, value_is_sensitive: true }]
    const em = await emulator({ seed })
    const dir = tempDir()
    for (const out of [[], ['--out', dir]]) {
      const run = await runCli(['import', '--kind', 'target', '--id', '7QwErTy2UiOp', '--secrets', 'reference', ...out], { env: connection(em) })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout + run.stderr).not.toContain('\u001b')
    }
    const written = readFileSync(join(dir, 'targets.yaml'), 'utf8')
    expect(written).not.toContain('\u001b')
    expect(written).toContain('site.headers[X\\u001b[31m\\u001b[1G\\u001b[2K  # all fine].value')
    const variable = /\$\{([A-Z0-9_]+)\}/.exec(written)![1]!
    const plan = await planRun(em, dir, { [variable]: SECRET }, 'json')
    expect(plan.err).toBe('')
    expect(plan.code, plan.out).toBe(0)
  })
})
