import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, importRun, planRun, secretEnv, tempDir } from './helpers.js'

// Review round 26 (the YAML tools teams already run on their repository): a live text with a line
// ending in spaces ("trailing space \nnext") was written as a block scalar `|-` whose line kept
// those spaces, and a text ending in blank lines ("reviewed\n\n\n") as `|+` followed by blank
// lines, at the end of the file when it was the last field. yamllint's default rules refused both
// (trailing-spaces, empty-lines), and the fixers teams run on every commit (pre-commit's
// trailing-whitespace and end-of-file-fixer hooks, an editor's "trim trailing whitespace" and
// "trim final newlines" on save, .editorconfig) removed the spaces and blank lines: the value
// changed without a word, and the next plan sent "trailing space\nnext" and "reviewed\n". A
// double-quoted text longer than 40 characters was broken over lines at its line feeds, a line
// ending in `\ ` where the text's did in a space: trimmed, it read as a line continuation.

/** pre-commit's trailing-whitespace hook: each line without its trailing spaces and tabs. */
const trimTrailingWhitespace = (text: string) => text.replace(/[ \t]+$/gm, '')
/** pre-commit's end-of-file-fixer: the file ends with exactly one line feed. */
const fixEndOfFile = (text: string) => `${text.replace(/\n+$/, '')}\n`

const TEXTS = {
  desc: 'trailing space \nnext',
  // Longer than 40 characters: the yaml library folds a double-quoted text over several lines.
  long: 'first line of a longer description, ending in spaces   \nsecond line of it, after them\n\n\n',
  header: 'a\n  \nb\t',
  blankLines: 'keep\n\n\n\n\nthen',
  comment: 'reviewed\n\n\n',
}

function seed(): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.site!.desc = TEXTS.desc
  ;(shop.site as { headers: Array<{ name: string; value: string }> }).headers.push({ name: 'X-Multi', value: TEXTS.header })
  seed.targets!.find((t) => t.id === '9XcVbN5mQwEr')!.site!.desc = TEXTS.blankLines
  seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!.site!.desc = TEXTS.long
  // The last asset by id: its comment is the last field of assets.yaml.
  const assets = seed.assets!.map((a) => a.id).sort()
  seed.assets!.find((a) => a.id === assets[assets.length - 1])!.comment = TEXTS.comment
  return seed
}

describe('import: texts whose spaces or blank lines a whitespace fixer removes', () => {
  it('are written so that yamllint passes them and the fixers leave the values as they are', async () => {
    const em = await emulator({ seed: seed() })
    const dir = tempDir()
    const run = await importRun(em, { all: true, out: dir })
    expect(run.code, run.err).toBe(0)
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8')
      // yamllint's trailing-spaces and empty-lines (max 2, none at the end of the file).
      expect(text.split('\n').filter((line) => /[ \t]$/.test(line)), name).toEqual([])
      expect(text.endsWith('\n') && !text.endsWith('\n\n'), name).toBe(true)
      expect(/\n\n\n\n/.test(text), name).toBe(false)
      writeFileSync(join(dir, name), fixEndOfFile(trimTrailingWhitespace(text)))
    }
    const plan = await planRun(em, dir, secretEnv(em, run.err), 'json')
    expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
  })
})
