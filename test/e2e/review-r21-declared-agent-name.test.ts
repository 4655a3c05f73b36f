// Review round 21 (the documentation, run exactly as written): README says plans print names,
// "ids only where no name is known". A target switched to an agent that the configuration also
// declares by id (as `import` writes agents.yaml) was planned as `scanning_agent: null -> {id:
// "6NbVcX4zLkJh"}`, although the run read that agent; the same plan under --kind target (which
// reads the agent list instead) said `null -> dc-porto-agent`. The agents the plan reads now name
// it, by the name they will have after the apply, and a name from a variable stays (sensitive).
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const config = (agentName: string) => `targets:\n  - id: 7QwErTy2UiOp\n    scanning_agent: 6NbVcX4zLkJh\nagents:\n  - id: 6NbVcX4zLkJh\n    name: ${agentName}\n`

describe("a target's scanning_agent referring by id to an agent the configuration declares", () => {
  it('is shown by the agent name, with or without --kind target', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': config('dc-porto-agent') })
    for (const args of [['plan'], ['plan', '--kind', 'target']]) {
      const run = await cli(em, dir, args)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('    scanning_agent: null -> dc-porto-agent\n')
    }
  })

  it('by the name the apply gives the agent, and as (sensitive) when that name comes from a variable', async () => {
    const em = await emulator()
    const renamed = await cli(em, tempdir({ 'c.yaml': config('porto-renamed') }), ['plan'])
    expect(renamed.stdout).toContain('    scanning_agent: null -> porto-renamed\n')
    const secret = await cli(em, tempdir({ 'c.yaml': config('"${AGENT_NAME}"') }), ['plan'], { AGENT_NAME: 'porto-Secret-name-7f3a' })
    expect(secret.code, secret.stderr).toBe(0)
    expect(secret.stdout).toContain('    scanning_agent: null -> (sensitive)\n')
    expect(secret.stdout + secret.stderr).not.toContain('porto-Secret-name-7f3a')
  })
})
