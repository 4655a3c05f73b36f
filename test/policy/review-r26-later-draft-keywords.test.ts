// Someone who learnt JSON Schema from a recent tutorial writes `minContains: 2`, `dependentRequired`
// or `unevaluatedProperties: false`: keywords of drafts 2019-09 and 2020-12. Rules are draft-07, so
// each was refused as a misspelling ("did you mean "contains"?" for minContains, advice that
// leaves a rule asking for one item where two were meant). Such a keyword is now said to be of a
// later draft, with what draft-07 writes instead.
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from '../config/helpers.js'

afterAll(removeTestdirs)

const diagnosticsOf = async (text: string) => (await load({ 'rules.yaml': text })).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)

describe('a keyword of a later draft', () => {
  it('is named as such, at its line, with the draft-07 way to write it; never as a misspelling', async () => {
    const text = `policies:
  - name: two-labels
    kind: target
    require:
      properties:
        labels: {contains: {required: [name]}, minContains: 2}
  - name: agent-with-window
    kind: target
    require:
      dependentRequired: {blackout_period: [scanning_agent]}
  - name: closed
    kind: target
    require:
      unevaluatedProperties: false
`
    const later = 'is a keyword of a later JSON Schema draft (2019-09 or 2020-12); rules are written in draft-07'
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, 'minContains')}:${columnOf(text, 'minContains')}: policy two-labels: require: "minContains" at properties.labels ${later}, where contains asks for one matching item; for several, write one contains for each in allOf`,
      `${lineOf(text, 'dependentRequired')}:${columnOf(text, 'dependentRequired')}: policy agent-with-window: require: "dependentRequired" ${later}, which writes it as dependencies: {NAME: [OTHER, …]}`,
      `${lineOf(text, 'unevaluatedProperties')}:${columnOf(text, 'unevaluatedProperties')}: policy closed: require: "unevaluatedProperties" ${later}, which writes it as additionalProperties beside the properties it allows`,
    ])
  })

  it('a misspelt draft-07 keyword is still one', async () => {
    const text = `policies:\n  - name: r\n    kind: target\n    require: {requried: [labels]}\n`
    expect((await diagnosticsOf(text))[0]).toContain('unknown keyword "requried" (did you mean "required"?)')
  })
})
