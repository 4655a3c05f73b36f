// Review round 21 (the same plan on every machine): policy violations were sorted by file name
// and by policy name through the locale's collation (localeCompare). With LANG=da_DK.UTF-8
// (Danish sorts "aa" as "å", after "z") plan listed ab.yaml's violations before aa.yaml's, and
// policy ab-… before aa-…, unlike every other machine. They are now sorted by the characters.
import { expect, it } from 'vitest'
import { envFor, runCli, sharedEmulator, tempdir } from '../e2e/helpers.js'

const em = sharedEmulator()

const failFast = (id: string) => `targets:\n  - id: ${id}\n    fail_fast: true\n`
const RULES = `policies:
  - name: ab-no-fail-fast
    kind: target
    require: {properties: {fail_fast: {const: false}}}
  - name: aa-no-fail-fast
    kind: target
    require: {properties: {fail_fast: {const: false}}}
`

it('the violations are listed in the same order whatever the locale', async () => {
  const dir = tempdir({ 'aa.yaml': failFast('2DZkoZH8WMEM'), 'ab.yaml': failFast('7QwErTy2UiOp'), 'policies.yaml': RULES })
  for (const locale of ['C', 'da_DK.UTF-8']) {
    const plan = await runCli(['plan'], { cwd: dir, env: envFor(em(), { LANG: locale, LC_ALL: locale }), spawn: true })
    expect(plan.code, locale).toBe(1)
    const violations = [...plan.stderr.matchAll(/^(\w+\.yaml):2:5: policy ([\w-]+):/gm)].map((m) => `${m[1]} ${m[2]}`)
    expect(violations, locale).toEqual(['aa.yaml aa-no-fail-fast', 'aa.yaml ab-no-fail-fast', 'ab.yaml aa-no-fail-fast', 'ab.yaml ab-no-fail-fast'])
  }
})
