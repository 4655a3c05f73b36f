// Review round 18 (the command line as users type it): the README promises a usage error "with a
// suggestion" for a mistyped command. `scansync pln` had one; `scansync help pln`, the other way
// to ask for a command's help, said only "Command pln not found", with no suggestion.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

describe.concurrent('scansync help with a mistyped command', () => {
  it('suggests the command, as scansync pln does, and exits 1', async () => {
    const typo = await spawnCli(['help', 'pln'])
    expect(typo.stderr).toBe('Error: unknown command "pln"; did you mean "plan"? See scansync --help for the commands.\n')
    expect([typo.code, typo.stdout]).toEqual([1, ''])
    const direct = await spawnCli(['pln'])
    expect(direct.stderr).toBe(typo.stderr)
  })

  it('a command that does not come close is named without a suggestion', async () => {
    const { code, stderr } = await spawnCli(['help', 'nosuch'])
    expect(stderr).toBe('Error: unknown command "nosuch". See scansync --help for the commands.\n')
    expect(code).toBe(1)
  })
})
