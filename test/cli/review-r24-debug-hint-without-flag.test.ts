// An unexpected failure (a bug) told the user to "Run again with --debug" in every command, but
// validate, init, schema and completion have no --debug: following the advice gave a usage error.
// Only a command with the flag names it now; the others ask for a report with the command run.
import { describe, expect, it } from 'vitest'
import { guard } from '../../src/cli/run/errors.js'
import { captureIo } from '../helpers/cli.js'

const bug = async (): Promise<number> => {
  throw new TypeError('(text ?? "").replace is not a function')
}

describe('the hint after an unexpected failure', () => {
  it('names --debug where the command has it (plan, apply, drift, audit, import), given or not', async () => {
    for (const debug of [undefined, false]) {
      const io = captureIo()
      expect(await guard(io, { debug }, bug)).toBe(1)
      expect(io.err()).toContain('Error: unexpected failure: (text ?? "").replace is not a function')
      expect(io.err()).toContain('Run again with --debug for details, and please report it.')
    }
  })

  it('does not name a flag the command lacks (validate, init, schema, completion)', async () => {
    const io = captureIo()
    expect(await guard(io, {}, bug)).toBe(1)
    expect(io.err()).toContain('Error: unexpected failure')
    expect(io.err()).not.toContain('--debug')
    expect(io.err()).toContain('This is a bug in scansync: please report it, with the command you ran.')
  })

  it('prints the stack under --debug', async () => {
    const io = captureIo()
    await guard(io, { debug: true }, bug)
    expect(io.err()).toMatch(/TypeError: .*\n\s+at /)
  })
})
