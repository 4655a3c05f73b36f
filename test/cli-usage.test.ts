import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli.js'

// Exit 2 means "changes" (plan --detailed-exitcode) or "drift found": a usage error must not look like it.
describe('usage errors exit 1, never 2', () => {
  it.each([
    [['plan', '--fromat', 'json']],
    [['drift', '--format', 'xml']],
    [['nosuch']],
    [['apply', '--max-changes', 'many']],
  ])('scansync %j', async (args) => {
    const result = await runCli(args)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Error/)
  })
})
