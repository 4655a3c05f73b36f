// Review round 21 (the same plan on every machine): the secrets state's fields were sorted through
// the locale's collation (localeCompare). The state is committed after each apply; an apply on a
// runner with LANG=da_DK.UTF-8 (Danish sorts "aa" as "å", after "z") rewrote it with the fields
// of headers "aa" and "ab" the other way round, a diff (and merge conflicts) for the same state.
// They are now sorted by their characters.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { emulator, envFor, runCli, tempdir } from '../e2e/helpers.js'
import { ensureBuilt } from '../config/helpers.js'

const TARGET = `targets:
  - id: 7QwErTy2UiOp
    site:
      headers:
        - name: ab
          value: \${AB_SECRET}
          value_is_sensitive: true
        - name: aa
          value: \${AA_SECRET}
          value_is_sensitive: true
`

it('an apply writes the state in the same order whatever the locale', async () => {
  await ensureBuilt()
  const em = await emulator({ obfuscate: true })
  const dir = tempdir({ 'targets.yaml': TARGET })
  const env = envFor(em, { AB_SECRET: 'secret-ab-8d2f61', AA_SECRET: 'secret-aa-3c9e07', LANG: 'da_DK.UTF-8', LC_ALL: 'da_DK.UTF-8' })
  const applied = await runCli(['apply', '--auto-approve'], { cwd: dir, env, spawn: true })
  expect(applied.stderr).toBe('')
  expect(applied.code).toBe(0)
  const fields = Object.keys((JSON.parse(readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')) as { resources: Record<string, object> }).resources['target/7QwErTy2UiOp'])
  expect(fields.filter((field) => field.startsWith('site.'))).toEqual(['site.headers[aa].value', 'site.headers[ab].value'])
})
