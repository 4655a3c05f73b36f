// Review round 21 (the same plan on every machine): targets to create were ordered by the URL
// through the locale's collation (localeCompare). A runner with LANG=da_DK.UTF-8 (Danish sorts
// "aa" as "å", after "z") listed the creations, in the plan, its JSON and the saved plan, in
// another order than a laptop with LANG=en_US.UTF-8. They are now ordered by the URL's characters.
import { expect, it } from 'vitest'
import { envFor, runCli, sharedEmulator, tempdir } from './helpers.js'

const em = sharedEmulator()

const TARGETS = `targets:
  - site:
      name: Zulu
      url: https://z.example.com/
  - site:
      name: Second
      url: https://ab.example.com/
  - site:
      name: First
      url: https://aa.example.com/
`

const creations = (stdout: string) => [...stdout.matchAll(/^\+ target "(\w+)"/gm)].map((m) => m[1])

it('the creations are in the same order whatever the locale', async () => {
  const dir = tempdir({ 'targets.yaml': TARGETS })
  for (const locale of ['C', 'en_US.UTF-8', 'da_DK.UTF-8', 'sv_SE.UTF-8']) {
    const plan = await runCli(['plan'], { cwd: dir, env: envFor(em(), { LANG: locale, LC_ALL: locale }), spawn: true })
    expect(plan.stderr).toBe('')
    expect(creations(plan.stdout), locale).toEqual(['First', 'Second', 'Zulu'])
  }
})
