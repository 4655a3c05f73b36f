// A security engineer's first rule: "production targets have a scanning agent", the label matched
// as the YAML writes it, `labels: {contains: {const: production}}`. Rules see a label as
// {name, color} (README, "The shape a rule sees"), so that `when` selected nothing and the rule
// passed every target, silently. A text keyword (const, enum, type: string, pattern, a length,
// format) written where rules see such an object (a label, a team, the scanning agent) is an
// error at its line that says how to write it: on the object's name (a label) or id (a team, an agent).
import { afterAll, describe, expect, it } from 'vitest'
import { columnOf, lineOf, load, removeTestdirs } from '../config/helpers.js'
import { emulator, runCli, tempdir } from '../e2e/helpers.js'

afterAll(removeTestdirs)

const diagnosticsOf = async (text: string) => (await load({ 'rules.yaml': text })).diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)

describe('a text compared with a place rules see as an object', () => {
  it('a label, a team and the scanning agent compared as texts: an error at the keyword, naming the member to compare', async () => {
    const text = `policies:
  - name: prod-has-agent
    kind: target
    when:
      properties: {labels: {contains: {const: production}}}
      required: [labels]
    require:
      properties:
        scanning_agent: {enum: [3kLx8Qy7Pb2m, 6NbVcX4zLkJh]}
  - name: env-label
    kind: asset
    require:
      properties:
        labels: {items: {pattern: "^env-"}}
  - name: platform-team
    kind: agent
    require:
      properties:
        teams: {contains: {type: string, minLength: 1}}
`
    expect(await diagnosticsOf(text)).toEqual([
      `${lineOf(text, 'const: production')}:${columnOf(text, 'const: production')}: policy prod-has-agent: when: rules see a target's labels[] as {name, color}, never as a text, so const "production" there never holds; write it on its name: {properties: {name: {const: "production"}}, required: [name]}`,
      `${lineOf(text, 'enum: [3kL')}:${columnOf(text, 'enum: [3kL')}: policy prod-has-agent: require: rules see a target's scanning_agent as {id}, never as a text, so enum ["3kLx8Qy7Pb2m","6NbVcX4zLkJh"] there never holds; write it on its id: {properties: {id: {enum: ["3kLx8Qy7Pb2m","6NbVcX4zLkJh"]}}, required: [id]}`,
      `${lineOf(text, 'pattern: "^env-"')}:${columnOf(text, 'pattern: "^env-"')}: policy env-label: require: rules see an asset's labels[] as {name, color}, never as a text, so pattern "^env-" there checks nothing; write it on its name: {properties: {name: {pattern: "^env-"}}, required: [name]}`,
      `${lineOf(text, 'type: string')}:${columnOf(text, 'type: string')}: policy platform-team: require: rules see an agent's teams[] as {id}, never as a text, so type "string" there never holds; write it on its id: {properties: {id: {type: "string"}}, required: [id]}`,
      `${lineOf(text, 'minLength: 1')}:${columnOf(text, 'minLength: 1')}: policy platform-team: require: rules see an agent's teams[] as {id}, never as a text, so minLength 1 there checks nothing; write it on its id: {properties: {id: {minLength: 1}}, required: [id]}`,
    ])
  })

  it('the forms README shows, and null for "no agent", are left alone', async () => {
    const text = `policies:
  - name: fine
    kind: target
    when:
      properties: {labels: {contains: {properties: {name: {const: production}}, required: [name]}}}
      required: [labels]
    require:
      properties:
        scanning_agent: {type: object, not: {const: null}, properties: {id: {const: 3kLx8Qy7Pb2m}}}
        labels: {items: {type: object, required: [name]}}
  - name: no-agent
    kind: target
    require: {properties: {scanning_agent: {const: null}}}
`
    expect(await diagnosticsOf(text)).toEqual([])
  })

  it('validate exits 1 naming the line, and plan sends nothing', async () => {
    const em = await emulator()
    const text = `policies:\n  - name: r\n    kind: target\n    when: {required: [labels], properties: {labels: {contains: {const: production}}}}\n    require: {required: [scanning_agent]}\n`
    const dir = tempdir({ 'rules.yaml': text })
    const validate = await runCli(['validate'], { cwd: dir })
    expect(validate.stderr).toContain(`rules.yaml:4:65: policy r: when: rules see a target's labels[] as {name, color}, never as a text`)
    expect(validate.code).toBe(1)
    em.clearRequests()
    const planned = await runCli(['plan'], { cwd: dir, env: { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: 'x-token-123456' } })
    expect(planned.code).toBe(1)
    expect(em.requests()).toEqual([])
  })
})
