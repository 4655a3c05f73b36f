// A rule whose `description` is not a text (a number, a list, true: a team copying a ticket
// number into it) stopped `scansync validate` and `plan` with "unexpected failure:
// (text2 ?? "").replace is not a function ... please report it", instead of the error at the
// line where the description is written, as every other wrong field of a rule is.
import { afterAll, describe, expect, it } from 'vitest'
import { removeTestdirs, testdir } from '../config/helpers.js'
import { runCli } from '../helpers/cli.js'

afterAll(removeTestdirs)

describe.concurrent("a rule's description that is not a text", () => {
  for (const [written, got] of [['5', 'an integer'], ['[a, b]', 'a list'], ['true', 'a boolean'], ['{text: x}', 'a mapping']] as const) {
    it(`description: ${written}: an error at its line, no unexpected failure`, async () => {
      const text = `policies:\n  - name: prod-blackout\n    kind: target\n    description: ${written}\n    require: {required: [blackout_period]}\n`
      const dir = testdir({ 'rules.yaml': text })
      const { code, stderr } = await runCli(['validate', dir], { cwd: dir })
      expect(stderr).not.toContain('unexpected failure')
      expect(stderr).toMatch(new RegExp(`rules\\.yaml:4:18: policies\\[0\\]\\.description must be a string \\(got ${got}`))
      expect(code).toBe(1)
    })
  }
})
