// Review round 16: a URL with a password quoted by a message (an identity error, a creation's
// look-up) is printed with its password hidden, as plans head the target: the output step hides
// every URL's password, not only those a run learnt.
import { beforeAll, describe, expect, it } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { maskUrlPasswords, urlPasswordSpans } from '../../src/core/url.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, exampleSeed, FAST_HTTP, tempdir, TOKEN } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

describe("a URL's password in a message", () => {
  it('the output step hides it, whoever wrote the URL; one pass over the text', () => {
    const output = new Redaction('a-token-123456').output
    expect(output('target "https://u:LitPass77@new.example.com/": not found')).toBe('target "https://u:(sensitive)@new.example.com/": not found')
    expect(output('see https://scanner@example.com:Pw-1@h/ and https://h:8080/a@b')).toBe('see https://scanner@example.com:(sensitive)@h/ and https://h:8080/a@b')
    expect(maskUrlPasswords('no url @ here', '(sensitive)')).toBe('no url @ here')
    // Read in one pass (a quadratic reading would not end within the test's time; no timing is asserted).
    expect(urlPasswordSpans('@' + 'ab://'.repeat(200_000))).toEqual([])
  })

  it('identity errors and a creation whose answer was lost do not print it', async () => {
    const seed = exampleSeed()
    for (const id of ['DupA00000001', 'DupA00000002']) seed.targets!.push({ id, site: { name: id, url: 'https://u:LivePass99@dup.example.com/' } } as never)
    const em = await emulator({ seed })
    const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'POST' ? { status: 503, body: '{}' } : forward()))
    const env = { SCANSYNC_API_URL: proxy.url, SCANSYNC_API_TOKEN: TOKEN, ...FAST_HTTP }

    const ambiguous = tempdir({ 'a.yaml': ['targets:', '  - site:', '      url: https://u:LivePass99@dup.example.com/', '  - site:', '      url: https://u:LitPass88@none.example.com/', ''].join('\n') })
    const plan = await runCli(['plan'], { cwd: ambiguous, env })
    expect(plan.code).toBe(1)
    expect(plan.stderr).toContain('2 live targets have this URL')
    expect(plan.stdout + plan.stderr).not.toMatch(/LivePass99|LitPass88/)

    const lost = tempdir({ 'a.yaml': ['targets:', '  - site:', '      name: New', '      url: https://u:LitPass77@new.example.com/', ''].join('\n') })
    const apply = await runCli(['apply', '--auto-approve'], { cwd: lost, env })
    expect(apply.code).toBe(1)
    expect(apply.stdout).toContain('no target has the URL')
    expect(apply.stdout + apply.stderr).not.toContain('LitPass77')
  })
})
