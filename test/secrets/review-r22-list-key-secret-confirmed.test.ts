// Review round 22 (a new secret under a list key recorded without confirmation): a secret the
// apply sends is recorded only once the service answers another obfuscated value than it had.
// The executor looked the plan's reason up by the field's display path: a saved plan writes a
// list key holding a secret of the run masked (`site.headers[(sensitive)].value`), and two keys
// from variables both print `[(sensitive)]`; the real path matched none of the plan's, or the
// other item's, so a new header secret the service ignored was recorded as in sync, silently
// (the next plan empty, the service still holding the old one), or one it took was "not confirmed".
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'

const NOT_CONFIRMED = 'not confirmed: the service answered 200, but the obfuscated value of'

/** A service that answers 200 to a header's new value and keeps the one it had (`kept`, by header name). */
const ignoringHeaderValues = (upstream: string, kept: Record<string, string>) =>
  startProxy(upstream, (request, forward) => {
    if (request.method !== 'PATCH') return forward()
    const body = JSON.parse(request.body) as { site?: { headers?: Array<{ name: string; value: string }> } }
    for (const header of body.site?.headers ?? []) if (kept[header.name] !== undefined) header.value = kept[header.name]!
    return forward(JSON.stringify(body))
  })

describe('a new secret under a list key', () => {
  const twoKeysFromVariables = `targets:
  - id: 7QwErTy2UiOp
    site:
      headers:
        - {name: '\${H1}', value: '\${V1}', value_is_sensitive: true}
        - {name: '\${H2}', value: '\${V2}', value_is_sensitive: true}
`
  const firstValues = { H1: 'X-One', H2: 'X-Two', V1: 'one-Header-Secret-5e6f', V2: 'two-Header-Secret-7a8b' }
  const rotated = { ...firstValues, V1: 'one-Rotated-Secret-9c0d' }

  /** Applied with the first values; `ignoring`: the rotated run's variables, through a service that keeps X-One's old value. */
  async function appliedOnce() {
    const em = await emulator({ obfuscate: true })
    const dir = tempdir({ 'targets.yaml': twoKeysFromVariables })
    expect((await cli(em, dir, ['apply', '--auto-approve'], firstValues)).code).toBe(0)
    const proxy = await ignoringHeaderValues(em.url, { 'X-One': firstValues.V1 })
    return { em, dir, ignoring: { ...rotated, SCANSYNC_API_URL: proxy.url } }
  }

  /** Not recorded as in sync: the next plan still shows the secret to send. */
  async function expectStillToSend(em: Awaited<ReturnType<typeof emulator>>, dir: string) {
    const next = await cli(em, dir, ['plan', '--detailed-exitcode'], rotated)
    expect(next.code).toBe(2)
    expect(next.stdout).toContain('(changed in YAML)')
  }

  it('of two keys from variables: not confirmed when the service keeps the old one', async () => {
    const { em, dir, ignoring } = await appliedOnce()
    const run = await cli(em, dir, ['apply', '--auto-approve'], ignoring)
    expect(run.stdout).toContain(NOT_CONFIRMED)
    expect(run.code).toBe(1)
    await expectStillToSend(em, dir)
  })

  it('of two keys from variables, in a saved plan: not confirmed when the service keeps the old one', async () => {
    const { em, dir, ignoring } = await appliedOnce()
    const saved = await cli(em, dir, ['plan', '--out', 'p.json'], ignoring)
    expect(saved.code, saved.stderr).toBe(0)
    const run = await cli(em, dir, ['apply', '--plan', 'p.json', '--auto-approve'], ignoring)
    expect(run.stdout, run.stderr).toContain(NOT_CONFIRMED)
    expect(run.code).toBe(1)
    await expectStillToSend(em, dir)
  })

  it('of two keys from variables: confirmed and recorded when the service takes it', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = tempdir({ 'targets.yaml': twoKeysFromVariables })
    expect((await cli(em, dir, ['apply', '--auto-approve'], firstValues)).code).toBe(0)
    const run = await cli(em, dir, ['apply', '--auto-approve'], rotated)
    expect(run.stdout).not.toContain('not confirmed')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'], rotated)).code).toBe(0)
  })
})
