// Review round 24 (scanning agents, their teams, and references by name): a name written with
// decomposed accents (NFD: "e" then U+0301, as macOS and some web forms write it) draws exactly as
// its composed form (NFC: "é"). An agent renamed so by hand planned `name: "Café-agent" ->
// "Café-agent"`, a change no one could see; a team named so by hand made `teams: [{name: Café}]`
// fail with `no team is named "Café"; did you mean "Café"?`. The combining marks of a letter that
// Unicode would compose now print as their escapes; text already composed prints as it is.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { formatValue } from '../../src/render/index.js'

const NFD = 'Cafe\u0301'
const NFC = 'Caf\u00e9'

describe('names differing only in Unicode normalisation', () => {
  it('print their decomposed marks escaped; composed text and marks with no composed form as they are', () => {
    expect(formatValue(`${NFD}-agent`)).toBe('"Cafe\\u0301-agent"')
    expect(formatValue(`${NFC}-agent`)).toBe(`"${NFC}-agent"`)
    // Vietnamese in NFD: both marks of one letter; Hindi and a mark with no precomposed letter stay.
    expect(formatValue('Vie\u0323\u0302t')).toBe('"Vie\\u0323\\u0302t"')
    expect(formatValue('हिन्दी q\u0301')).toBe('"हिन्दी q\u0301"')
  })

  it('plan shows the agent rename, and the unknown team name tells the two apart', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.agents!.find((a) => a.id === '2PqRsT6uVwXy')!.name = `${NFD}-agent`
    seed.teams!.push({ id: 'TmCafe333333', name: NFD })
    const em = await emulator({ seed })
    const renamed = tempdir({ 'agents.yaml': `agents:\n  - id: 2PqRsT6uVwXy\n    name: "${NFC}-agent"\n` })
    const plan = await cli(em, renamed, ['plan'])
    expect(plan.stderr).toBe('')
    expect(plan.stdout).toContain(`name: "Cafe\\u0301-agent" -> "${NFC}-agent"`)

    const byName = tempdir({ 'agents.yaml': `agents:\n  - id: 6NbVcX4zLkJh\n    teams: [{name: "${NFC}"}]\n` })
    em.clearRequests()
    const refused = await cli(em, byName, ['apply', '--auto-approve'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`agents.yaml:3:20: agent 6NbVcX4zLkJh: teams[0].name: no team is named "${NFC}"; did you mean "Cafe\\u0301"?`)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
