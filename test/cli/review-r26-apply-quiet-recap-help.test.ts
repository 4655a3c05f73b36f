// Review round 26 (every --help, run as written): `scansync apply --help` said of -q, --quiet with
// --auto-approve "only each resource's result and the summary line (and errors)". Since this round
// apply ends its report with a recap of the changes to look at ("Needs attention (2 of 3 changes):"
// and a line for each, at its file:line), which -q prints too (the README says so): a script or a
// person reading the help expected results and a summary, and met more lines. The help now names
// the recap.
import { describe, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { cli, emulator, exampleConfig, runCli } from '../e2e/helpers.js'

/** The description of -q, --quiet in `scansync COMMAND --help`, its lines joined. */
async function quietHelp(command: string): Promise<string> {
  const { stdout } = await runCli([command, '--help'])
  const lines = stdout.split('\n')
  const start = lines.findIndex((l) => /^\s+-q, --quiet\s/.test(l))
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((l) => !/^\s{20,}\S/.test(l))
  return [lines[start], ...rest.slice(0, end)].join(' ').replace(/\s+/g, ' ')
}

describe('apply --auto-approve --quiet: the help names every kind of line it prints', () => {
  it('with a failed change, -q prints the results, the recap and the summary; the help says so', async () => {
    const em = await emulator()
    em.setFaults([parseFaultSpec('500,method=PATCH,path=/targets/')])
    const { code, stdout } = await cli(em, exampleConfig(), ['apply', '.', '--auto-approve', '--quiet'], { SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(code).toBe(1)
    const lines = stdout.trimEnd().split('\n').filter((l) => l !== '')
    expect(lines).toContain('Needs attention (1 of 3 changes):')
    expect(lines.at(-1)).toBe('Apply: 2 applied, 1 failed, 0 not applied, 5 unchanged.')
    const help = await quietHelp('apply')
    expect(help).toMatch(/each resource's result/)
    expect(help).toMatch(/recap/)
  })
})
