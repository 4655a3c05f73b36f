// `apply --format json` (or markdown, github) on a terminal asked "Apply 3 changes?" without the
// plan anywhere to read: stdout is for the report, and the text plan was printed only in the text
// format. The plan the question is about is now shown on stderr, where the question is asked.
import { describe, expect, it } from 'vitest'
import { apply, emulator, exampleConfig, writes } from './helpers.js'

describe('apply on a terminal in a document format', () => {
  it.each(['json', 'markdown', 'github'] as const)('%s: shows the plan on stderr before asking; stdout keeps no plan text', async (format) => {
    const em = await emulator()
    const dir = exampleConfig()
    const run = await apply(em, dir, { format, autoApprove: false }, {}, { tty: true, answer: 'no' })
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/^~ target 2DZkoZH8WMEM "Shop \(production\)"$/m)
    expect(run.err).toMatch(/^Plan: \d+ to change, \d+ unchanged\.$/m)
    expect(run.err).toContain('Apply cancelled; nothing was sent.')
    expect(run.out).not.toMatch(/^~ target/m)
    expect(writes(em)).toEqual([])
  })

  it('text: the plan is shown once, on stdout, as before', async () => {
    const em = await emulator()
    const run = await apply(em, exampleConfig(), { format: 'text', autoApprove: false }, {}, { tty: true, answer: 'no' })
    expect(run.out).toMatch(/^~ target 2DZkoZH8WMEM/m)
    expect(run.err).not.toMatch(/^~ target/m)
  })
})
