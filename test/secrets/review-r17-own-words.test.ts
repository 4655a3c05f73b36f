// A secret the service holds in clear that is one of scansync's own words in another letter case
// (a password `Unchanged`) was replaced in scansync's own lines once live secrets were taught to the
// output step, lower- and upper-cased too: the plan's summary read `Plan: 0 to change, 3
// (sensitive).`, which a script parsing it no longer understands. Such a word is too common to
// replace (a weak secret): the output step withholds the service's texts that may hold it instead.
import { describe, expect, it } from 'vitest'
import { isWeakSecret } from '../../src/core/redaction.js'
import { apply, emulator, exampleSeed, plan, tempdir } from '../e2e/helpers.js'

const OWN_WORDS = ['Unchanged', 'Applied', 'Declared', 'Interrupted', 'Tracked', 'Unmanaged', 'Violations', 'Warnings', 'Planned', 'Drifted', 'Summary']

describe("a live secret that is one of scansync's own words", () => {
  it('is weak: never substituted', () => {
    for (const word of OWN_WORDS) expect(isWeakSecret(word), word).toBe(true)
  })

  it("leaves plan's and apply's summary lines as the contract writes them", async () => {
    const seed = exampleSeed()
    seed.targets![0]!.site!.basic_auth = { username: 'scanner', password: 'Unchanged', password_is_sensitive: true }
    const em = await emulator({ seed })
    const dir = tempdir({ 'c.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    site: {desc: changed by the review}\n  - id: 7QwErTy2UiOp\n  - id: 9XcVbN5mQwEr\n` })
    const planned = await plan(em, dir)
    expect(planned.out).toContain('Plan: 1 to change, 2 unchanged.')
    const applied = await apply(em, dir)
    expect(applied.code, applied.err).toBe(0)
    expect(applied.out + applied.err).toMatch(/Apply: 1 applied/)
    expect((await plan(em, dir)).out).toContain('No changes. Plan: 0 to change, 3 unchanged.')
  })
})
