// Review round 22 (attacks on this round's escaping): the plan now writes a value's characters
// with no glyph as `\u200b` (so that a change does not read `"Promo" -> "Promo"`), and so did
// --format github's annotation of a configuration error, but the text format's error line wrote
// them as they are: `no agent is named "dc-lisbon-agent​"; did you mean "dc-lisbon-agent"?`,
// two names that read the same, the difference invisible. The error line escapes them too.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

describe('a configuration error quoting a name with an invisible character', () => {
  it.each([
    {
      what: 'plan: the unknown agent name shows its zero-width space',
      command: 'plan',
      yaml: 'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {name: "dc-lisbon-agent\\u200b"}\n',
      said: 'c.yaml:3:28: target 2DZkoZH8WMEM: scanning_agent.name: no agent is named "dc-lisbon-agent\\u200b"; did you mean "dc-lisbon-agent"?',
      invisible: '\u200b',
    },
    {
      what: 'validate: an unknown field whose name holds a soft hyphen shows it',
      command: 'validate',
      yaml: 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {"na\\u00adme": Shop}\n',
      said: 'na\\u00adme',
      invisible: '\u00ad',
    },
  ])('$what', async ({ command, yaml, said, invisible }) => {
    const em = await emulator()
    const run = await cli(em, tempdir({ 'c.yaml': yaml }), [command])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(said)
    expect(run.stderr).not.toContain(invisible)
  })
})
