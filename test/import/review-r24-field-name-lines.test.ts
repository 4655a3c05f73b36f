// Review round 24 (hostile values in CI outputs): import's notes on stderr name each secret's field
// as plans print it, `site.headers[Authorization].value`, the list key being the item's name on the
// service. A header named by hand "X\n::error file=README.md,line=1::forged" printed its line break
// as it was: `  TARGET_…_VALUE  target 7QwErTy2UiOp site.headers[X` then, at the start of a line,
// `::error file=README.md,line=1::forged].value`, which a GitHub runner takes for an annotation of
// its own (a forged error on any file of the repository). The field is printed as a plan prints it:
// its line break written `\u000a`.
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed } from './helpers.js'

const HEADER = 'X\n::error file=README.md,line=1::forged from a header name'

describe('import: a secret field whose list key holds a line break', () => {
  it('names the field on one line on stderr, for either --secrets choice', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!.site!.headers = [{ name: HEADER, value: 'header-secret-ccc-3', value_is_sensitive: true }]
    const em = await emulator({ seed })
    for (const secrets of ['reference', 'omit']) {
      const run = await runCli(['import', '--kind', 'target', '--id', '7QwErTy2UiOp', '--secrets', secrets], { env: connection(em) })
      expect(run.code, run.stderr).toBe(0)
      const commandLines = (run.stdout + run.stderr).split('\n').filter((line) => /^\s*::/.test(line))
      expect(commandLines, secrets).toEqual([])
      expect(run.stderr).not.toContain('header-secret-ccc-3')
      if (secrets === 'reference') expect(run.stderr).toContain('target 7QwErTy2UiOp site.headers[X\\u000a::error file=README.md,line=1::forged from a header name].value')
    }
  })
})
