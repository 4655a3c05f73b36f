// Review round 24 (creating targets when runs are cut short): a target to create whose URL comes
// from a variable (sensitive), and the answer to its POST lost (the connection cut after the
// service created it). The look-up found it by its URL, and the report's warning then named the
// target a second time inside its own words, as `(target "(sensitive)": the service answered …)`:
// the client's words name the subject redacted, and only the unredacted subject was stripped. The
// warning now reads as for a URL shown in clear. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const files = { 'targets.yaml': 'targets:\n  - site:\n      name: Lost answer\n      url: ${NEW_URL}\n' }

describe('a creation whose POST answer is lost, its URL from a variable', () => {
  it.each([['text'], ['json']])('apply --format %s: the warning names the target once, the URL nowhere; created once', async (format) => {
    const em = await emulator({ faults: [{ type: 'drop-mid', count: 1, method: 'POST' }] })
    const url = 'https://lost-answer-r24.example.com/'
    const run = await cli(em, tempdir(files), ['apply', '.', '--auto-approve', '--format', format], { NEW_URL: url })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/the answer to the POST was lost \(the service answered HTTP 201 with a body cut off before its end\); the target was found by its URL as /)
    expect(run.stdout).not.toMatch(/lost \(target /)
    expect(run.stdout + run.stderr).not.toContain('lost-answer-r24')
    expect(em.requests().filter((r) => r.method === 'POST')).toHaveLength(1)
  })
})
