// `scansync apply --help` said of -q, --quiet: "Text format: print only the summary line (and
// errors)". apply --auto-approve --quiet prints, as the README says ("no plan before the
// outcome"), each resource's result (✓ applied, ✗ failed) and then the summary: a script reading
// the help expected one line. The help now says what apply prints. Review round 26: apply then
// came to end its report with a recap of the changes to look at ("Needs attention (1 of 3
// changes):"), which -q prints too; the help named results and summary only. It names the recap.
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

describe.concurrent('-q, --quiet: the help says what apply prints', () => {
  it('apply --auto-approve --quiet prints each result and the summary; the help says so', async () => {
    const em = await emulator()
    const { code, stdout } = await cli(em, exampleConfig(), ['apply', '.', '--auto-approve', '--quiet'])
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split('\n').filter((l) => l !== '')
    expect(lines.filter((l) => l.startsWith('✓ '))).toHaveLength(3)
    expect(lines.at(-1)).toBe('Apply: 3 applied, 0 failed, 0 not applied, 5 unchanged.')
    expect(await quietHelp('apply')).toMatch(/each resource's result/)
  })

  it('with a failed change, -q prints the results, the recap and the summary; the help says so', async () => {
    const em = await emulator()
    em.setFaults([parseFaultSpec('500,method=PATCH,path=/targets/')])
    const { code, stdout } = await cli(em, exampleConfig(), ['apply', '.', '--auto-approve', '--quiet'], { SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(code).toBe(1)
    const lines = stdout.trimEnd().split('\n').filter((l) => l !== '')
    expect(lines).toContain('Needs attention (1 of 3 changes):')
    expect(lines.at(-1)).toBe('Apply: 2 applied, 1 failed, 0 not applied, 5 unchanged.')
    expect(await quietHelp('apply')).toMatch(/recap/)
  })

  it('plan and drift keep the words they live up to', async () => {
    for (const command of ['plan', 'drift']) expect(await quietHelp(command)).toMatch(/print only the summary line \(and errors\)/)
  })
})
