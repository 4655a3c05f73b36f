// Names shown for ids in a plan (`scanning_agent: dc-lisbon-agent -> dc-porto-agent`,
// `teams: [Platform] -> [Platform, Security]`) come from the service, where anyone with access to
// the web interface can rename an agent or a team. The text plan printed them as they were: a
// line break started a new line (a forged summary line, a `::add-mask::` or `::error` workflow
// command in a CI log) and a colour or cursor sequence reached the terminal. Every other value
// of the plan is printed with its control characters escaped; the names must be too.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'

const HOSTILE = 'porto\n::add-mask::hidden\r\n::error file=a.yaml,line=1::pwned\nPlan: 0 to change, 3 unchanged.\u001b[8m\u001b[2K\u001b[0G\u202e'

const TARGET = `targets:
  - id: 2DZkoZH8WMEM
    scanning_agent: {name: dc-porto-agent}
`
const AGENT = `agents:
  - id: 3kLx8Qy7Pb2m
    teams: [{name: Platform}]
`

/** Lines a GitHub runner would take for workflow commands (it trims leading spaces). */
const commandLines = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('::'))

describe('names shown for ids in the text plan', () => {
  it('an agent or team name from the service cannot break lines or carry terminal sequences', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    // The target's live agent, and a team of the declared agent, renamed by someone in the web interface.
    seed.agents!.find((a) => a.id === '2PqRsT6uVwXy')!.name = HOSTILE
    seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.scanning_agent = { id: '2PqRsT6uVwXy' }
    seed.teams!.find((t) => t.id === 'Tm1Zz9Yy8Xx7')!.name = HOSTILE
    seed.agents!.find((a) => a.id === '3kLx8Qy7Pb2m')!.teams = [{ id: 'Tm8Kq2Xa9Lp3' }, { id: 'Tm1Zz9Yy8Xx7' }]
    const em = await emulator({ seed })
    const dir = tempdir({ 'targets.yaml': TARGET, 'agents.yaml': AGENT })

    for (const command of ['plan', 'drift']) {
      const run = await cli(em, dir, [command])
      expect(run.stderr).toBe('')
      expect(run.stdout).toContain('scanning_agent: ')
      expect(run.stdout).toContain('teams: ')
      expect(commandLines(run.stdout)).toEqual([])
      expect(run.stdout).not.toContain('\u001b')
      expect(run.stdout).not.toContain('\r')
      expect(run.stdout).not.toContain('\u202e')
      // One summary line, the real one.
      expect(run.stdout.split('\n').filter((line) => /^(Plan|Drift): /.test(line))).toHaveLength(1)
      expect(run.stdout).toContain('porto\\u000a::add-mask::hidden\\u000d\\u000a::error file=a.yaml')
    }
    // The other formats already escaped them; they still do.
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.stdout.split('\n').filter((line) => line.startsWith('::')).every((line) => line.startsWith('::warning file='))).toBe(true)
    expect(commandLines(github.stdout)).toHaveLength(2)
  })
})
