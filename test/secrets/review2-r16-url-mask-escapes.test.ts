// Review 2, round 16: the output step hides every URL's password in the printed text, where values
// are quoted with escapes: a line break in a value is \n there (<br> in Markdown), which ended no
// URL, so a multi-line description with a URL with a port on one line and an address on the next
// was printed as 'https://grafana.example.com:(sensitive)@example.com' in every format, the JSON
// plan's "after" included: not what apply sends.
import { beforeAll, describe, expect, it } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { urlPasswordSpans } from '../../src/core/url.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, exampleSeed, FAST_HTTP, tempdir, TOKEN } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const DESC = 'Dashboard: https://grafana.example.com:3000\nops@example.com\n'

describe("the output step and a URL's password across an escaped line break", () => {
  it('an escaped break ends the URL; a password before one is still hidden; one pass', () => {
    const output = new Redaction('a-token-123456').output
    expect(output(JSON.stringify(DESC))).toBe(JSON.stringify(DESC))
    expect(output('"https://h:1\\nops@x" "https://h:1\\u2028ops@x" https://h:1<br>ops@x')).toBe('"https://h:1\\nops@x" "https://h:1\\u2028ops@x" https://h:1<br>ops@x')
    // An even run of backslashes is escaped backslashes (a password may hold a backslash and an n):
    // Markdown's doubled \\n is read so too, the password hidden (review3-r16-url-escaped-backslash).
    expect(output('"https://h:1\\\\nops@x"')).toBe('"https://h:(sensitive)@x"')
    expect(output(JSON.stringify('https://u:Pw\\x@h/\nhttps://u:Pw2@h/'))).toBe('"https://u:(sensitive)@h/\\nhttps://u:(sensitive)@h/"')
    // Runs of backslashes are read once (a quadratic reading would not end within the test's time; no timing is asserted).
    expect(urlPasswordSpans('a://' + '\\'.repeat(300_000) + '@', { escaped: true })).toEqual([])
    expect(urlPasswordSpans('a://' + '\\x'.repeat(150_000) + ':@', { escaped: true })).toEqual([])
  })

  it('a plan shows a multi-line description as it is, in every format', async () => {
    const em = await emulator({ seed: exampleSeed() })
    const env = { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: TOKEN, ...FAST_HTTP }
    const dir = tempdir({ 'a.yaml': ['targets:', '  - id: 2DZkoZH8WMEM', '    site:', '      desc: |', '        Dashboard: https://grafana.example.com:3000', '        ops@example.com', ''].join('\n') })
    // Markdown doubles the backslash of the quoted value's \n: read as a backslash and an n (which a
    // password may hold, review3-r16-url-escaped-backslash), the URL there is masked.
    for (const format of ['text', 'github']) {
      const run = await runCli(['plan', '--format', format], { cwd: dir, env })
      expect(run.stdout, format).toContain('grafana.example.com:3000')
      expect(run.stdout, format).not.toContain('(sensitive)')
    }
    const json = await runCli(['plan', '--format', 'json'], { cwd: dir, env })
    const fields = (JSON.parse(json.stdout) as { changes: Array<{ fields: Array<{ path: string; after: unknown }> }> }).changes[0]!.fields
    expect(fields.find((field) => field.path === 'site.desc')?.after).toBe(DESC)
  })
})
