// The nightly audit with a mistyped service URL (a missing or extra /api/v1): every list page
// answers 404. The contract (README, "Exit codes"): "When every read of a run answers 404, the
// error says that the base URL is probably wrong and shows the URL tried, instead of blaming the
// ids." audit said "the service does not list assets (…answered 404); name them with --id
// instead": audit has no --id, and the URL was what was wrong.
import { describe, expect, it } from 'vitest'
import { cli, emulator, sharedEmulator, tempdir } from '../e2e/helpers.js'

const RULES = `policies:
  - name: asset-has-state
    kind: asset
    require: {required: [state]}
`

const em = sharedEmulator()

describe('audit with a wrong service URL', () => {
  it('says the URL is probably wrong and shows the one tried, in every format; exit 1', async () => {
    const url = `${em().url}/api/v2`
    for (const format of ['text', 'json']) {
      const { code, stdout, stderr } = await cli(em(), tempdir({ 'policies.yaml': RULES }), ['audit', '--format', format], { SCANSYNC_API_URL: url })
      expect(stderr).toContain(`the service URL ${url} is probably wrong`)
      expect(stderr).toContain(`The first URL tried: GET ${url}/discovery/assets/?page=1`)
      expect(stderr).not.toContain('--id')
      expect(stdout).toBe('')
      expect(code).toBe(1)
    }
  })

  it('with the right URL the same audit runs', async () => {
    const fresh = await emulator()
    const { code, stdout } = await cli(fresh, tempdir({ 'policies.yaml': RULES }), ['audit'])
    expect(stdout).toBe('Audit: 4 live resources checked against 1 rule; no policy violations.\n')
    expect(code).toBe(0)
  })
})
