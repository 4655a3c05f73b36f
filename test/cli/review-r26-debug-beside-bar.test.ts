// Review round 26 (--debug as the support engineer reads it): on a terminal, a run of more than a
// few dozen resources draws a progress bar on stderr, redrawn in place on its row without a line
// break; each --debug line was written after the bar's frame on that same row, so the log read
// `Applying [█░░░] 3/40debug: POST http://…/targets/ attempt 1/6 -> 201 …`, line after line, in
// the terminal and in the copy attached to a ticket. Now a debug line takes the bar's row (erased
// first) and the bar is redrawn below it. In-process, against the emulator, stderr a terminal.
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'

const targets = (n: number) =>
  'targets:\n' + Array.from({ length: n }, (_, i) => `  - site:\n      name: "Bar ${i}"\n      url: https://bar-${i}.example.com/\n`).join('')

/** What a terminal shows on one row: the text after the last return to the row's start, erases taken out. */
const shownRow = (row: string): string => row.split('\x1b[G').at(-1)!.replaceAll('\x1b[2K', '')

describe('--debug on a terminal, with the progress bar drawn', () => {
  it('each debug line stands on a row of its own, with no frame of the bar before it', async () => {
    const em = await emulator({ latencyMs: 5 })
    const dir = tempdir({ 'targets.yaml': targets(40) })
    const io = captureIo({ env: envFor(em, { TERM: 'xterm' }), cwd: dir })
    let err = ''
    const terminal = { write: (text: string) => (err += text), isTTY: true, columns: 200 }
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true, debug: true }, { ...io, stderr: terminal })
    expect(code, err).toBe(0)
    // The bar was drawn (else this test shows nothing).
    expect(err).toContain('Applying [')
    const rows = err.split('\n').filter((row) => row.includes('debug: '))
    expect(rows.length).toBeGreaterThanOrEqual(40)
    for (const row of rows) expect(shownRow(row)).toMatch(/^debug: /)
  })
})
