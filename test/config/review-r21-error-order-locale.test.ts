// Review round 21 (the same plan on every machine): the configuration's errors were sorted by
// file name through the locale's collation (localeCompare). With LANG=da_DK.UTF-8 (Danish sorts
// "aa" as "å", after "z") validate and plan listed ab.yaml's error before aa.yaml's, unlike every
// other machine and unlike the order the files are read in. They are now sorted by the characters.
import { expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'
import { ensureBuilt } from './helpers.js'

const unknownField = (id: string) => `targets:\n  - id: ${id}\n    bogus: 1\n`

it('the errors are listed in the same order whatever the locale', async () => {
  await ensureBuilt()
  const dir = temporaryDirectory('scansync-r21-', { 'aa.yaml': unknownField('2DZkoZH8WMEM'), 'ab.yaml': unknownField('7QwErTy2UiOp') })
  for (const locale of ['C', 'da_DK.UTF-8']) {
    const run = await runCli(['validate', '.'], { cwd: dir, env: { LANG: locale, LC_ALL: locale }, spawn: true })
    expect(run.code, locale).toBe(1)
    const files = [...run.stderr.matchAll(/^(\w+\.yaml):3:5: /gm)].map((m) => m[1])
    expect(files, locale).toEqual(['aa.yaml', 'ab.yaml'])
  }
})
