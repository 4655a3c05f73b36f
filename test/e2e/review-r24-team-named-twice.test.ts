// Review round 24 (scanning agents, their teams, and references by name): an agent listing one
// team twice by name (`teams: [{name: Platform}, {name: Platform}]`, or by its name and its id) was
// told `teams[1]: id "Tm8Kq2Xa9Lp3" is declared twice`, an id the user never wrote, with nothing
// saying which team that is. The message now says the name written too; nothing is sent.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('a team listed twice by name', () => {
  it('is said with the name written, at the later item', async () => {
    const em = await emulator()
    const dir = tempdir({
      'c.yaml': ['agents:', '  - id: 6NbVcX4zLkJh', '    teams: [{name: Platform}, {name: Platform}]', '  - id: 3kLx8Qy7Pb2m', '    teams:', '      - Tm1Zz9Yy8Xx7', '      - {name: Security}', ''].join('\n'),
    })
    em.clearRequests()
    const run = await cli(em, dir, ['apply', '--auto-approve'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('c.yaml:3:31: agent 6NbVcX4zLkJh: teams[1]: id "Tm8Kq2Xa9Lp3" (the team named "Platform") is declared twice (first at line 3); each id may appear once')
    expect(run.stderr).toContain('c.yaml:7:9: agent 3kLx8Qy7Pb2m: teams[1]: id "Tm1Zz9Yy8Xx7" (the team named "Security") is declared twice (first at line 6); each id may appear once')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
