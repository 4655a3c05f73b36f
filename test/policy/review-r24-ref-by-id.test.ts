// A misspelt field in a definition is an error at its line when a local `$ref`
// (`#/definitions/window`) points to it (README, "Policies"). A rule copied from a schema written
// with `$id`s refers to its definitions as Ajv also resolves them: by a plain name a definition's
// `$id` gives (`$ref: "#window"`), or from the rule's own `$id`
// (`https://acme.example/rules/blackout#/definitions/window`, or relative to it). Those
// references were not followed: `enabeld: {const: true}` there passed for every target, silently.
import { afterAll, describe, expect, it } from 'vitest'
import { removeTestdirs, testdir } from '../config/helpers.js'
import { runCli } from '../helpers/cli.js'

afterAll(removeTestdirs)

const rule = (definitions: string, ref: string, id = '') => `policies:
  - name: blackout-enabled
    kind: target
    require:${id ? `\n      $id: "${id}"` : ''}
      definitions:
        ${definitions}
      properties: {blackout_period: {$ref: "${ref}"}}
`

describe.concurrent('a misspelt field in a definition reached through its $id', () => {
  const cases = [
    ['a plain name (#window)', rule('window: {$id: "#window", properties: {enabeld: {const: true}}}', '#window')],
    ['the rule\'s own $id and a pointer', rule('window: {properties: {enabeld: {const: true}}}', 'https://acme.example/rules/blackout#/definitions/window', 'https://acme.example/rules/blackout')],
    ['a pointer relative to the rule\'s $id', rule('window: {properties: {enabeld: {const: true}}}', 'blackout#/definitions/window', 'https://acme.example/rules/blackout')],
  ] as const
  for (const [how, text] of cases) {
    it(`${how}: an error at the line of the misspelt field`, async () => {
      const dir = testdir({ 'rules.yaml': text })
      const { code, stderr } = await runCli(['validate', dir], { cwd: dir })
      const line = text.split('\n').findIndex((l) => l.includes('enabeld')) + 1
      expect(stderr).toMatch(new RegExp(`rules\\.yaml:${line}:\\d+: policy blackout-enabled: require: a target has no field blackout_period\\.enabeld \\(did you mean blackout_period\\.enabled\\?\\)`))
      expect(code).toBe(1)
    })
  }

  it('a reference to another document is still refused as naming nothing', async () => {
    const dir = testdir({ 'rules.yaml': rule('window: {properties: {enabled: {const: true}}}', 'https://other.example/s#/definitions/window', 'https://acme.example/rules/blackout') })
    const { code, stderr } = await runCli(['validate', dir], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toContain('$ref: "https://other.example/s#/definitions/window" names nothing')
  })
})
