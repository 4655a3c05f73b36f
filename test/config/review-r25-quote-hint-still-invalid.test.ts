// `begin: 22.00` (a time typed with a dot) or `report_type: 2021` is read by YAML as a number, and
// the error said "must be a string (got a number; quote it: "22.00")": the user quoted it, and the
// next run refused it again, now as "must be a time of day … written HH:MM". Quoting is offered
// only where the quoted text would be accepted; otherwise the error says at once what is expected,
// with the value as written (plain and merged YAML, the loader's two paths).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, removeTestdirs, runCli, testdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)
afterAll(removeTestdirs)

describe('a number or boolean where a string with a form or a list of values goes', () => {
  it('says what the field accepts instead of advising quotes that would not help', async () => {
    const cwd = testdir({
      'plain.yaml':
        'targets:\n  - id: 2DZkoZH8WMEM\n    report_type: 2021\n    blackout_period:\n      begin: 22.00\n      cease: 0600\n      weekdays: [1]\n    site:\n      name: 123\n',
      'merged.yaml': 'x-window: &window {cease: "06:00", weekdays: [1]}\ntargets:\n  - id: 7QwErTy2UiOp\n    blackout_period:\n      <<: *window\n      begin: 21.30\n',
    })
    const { code, stderr } = await runCli(['validate', '.'], { cwd })
    expect(code).toBe(1)
    expect(stderr).toContain('plain.yaml:3:18: target 2DZkoZH8WMEM: report_type must be one of: default, executive_summary, owasp, owasp_web_2021, owasp_web_2025, pci, pci_v3_2_1, pci4, pci_v4_0_1, iso27001, hipaa (got 2021)\n')
    expect(stderr).toContain('plain.yaml:5:14: target 2DZkoZH8WMEM: blackout_period.begin must be a time of day from 00:00 to 23:59, written HH:MM (got 22.00)\n')
    expect(stderr).toContain('plain.yaml:6:14: target 2DZkoZH8WMEM: blackout_period.cease must be a time of day from 00:00 to 23:59, written HH:MM (got 0600)\n')
    expect(stderr).toContain('merged.yaml:6:14: target 7QwErTy2UiOp: blackout_period.begin must be a time of day from 00:00 to 23:59, written HH:MM (got 21.30)\n')
    // Where quoting is the fix, it is still offered.
    expect(stderr).toContain('plain.yaml:9:13: target 2DZkoZH8WMEM: site.name must be a string (got an integer; quote it: "123")\n')
    expect(stderr).not.toContain('quote it: "22.00"')
    expect(stderr).not.toContain('quote it: "2021"')
  })
})
