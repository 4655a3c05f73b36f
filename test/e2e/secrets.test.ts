// Issue 5: no secret value and no token in any output, saved plan, state file or log. One test
// collects everything scansync writes (and what the emulator logged) and searches it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { apply, cli, emulator, exampleConfig, plan, TOKEN } from './helpers.js'
import { startProxy, type ProxyResponse } from './proxy.js'
import { ENV_SECRETS, lineIn, LITERAL_SECRETS, secretConfig, SEED_SECRETS, seed } from './secret-fixtures.js'

beforeAll(ensureBuilt, 120_000)

describe('no secret and no token anywhere', () => {
  it.each([false, true])('plan, drift and apply in every format with --debug, saved plan, state file, request log (obfuscate: %s)', async (obfuscate) => {
    const em = await emulator({ obfuscate, seed: seed() })
    const dir = secretConfig()
    const shop = join(dir, 'targets', 'shop.yaml')
    const texts: Record<string, string> = {}
    const keep = (name: string, run: { out?: string; err?: string; stdout?: string; stderr?: string; code: number | null }) => {
      texts[`${name} (stdout)`] = run.out ?? run.stdout ?? ''
      texts[`${name} (stderr)`] = run.err ?? run.stderr ?? ''
      return run
    }
    // Some requests fail and are retried, so that the debug log holds retries too.
    em.setFaults([{ type: '503', share: 0.2 }, { type: '429', share: 0.1, retryAfter: 0 }])

    for (const format of ['text', 'json', 'markdown', 'github'] as const) {
      keep(`plan ${format}`, await plan(em, dir, { format, debug: true }, ENV_SECRETS))
      keep(`drift ${format}`, await plan(em, dir, { format, debug: true, mode: 'drift' }, ENV_SECRETS))
    }
    // The real CLI: a saved plan, then its apply. A secret written in the YAML has no ${NAME} to
    // keep in a saved plan: refused, naming its place, and no file is written.
    const refused = keep('plan --out (refused)', await cli(em, dir, ['plan', '--debug', '--out', 'saved.json'], ENV_SECRETS))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('cannot save the plan: a saved plan keeps secrets only as ${NAME} references')
    expect(refused.stderr).toContain(`targets/shop.yaml:${lineIn(shop, LITERAL_SECRETS[0])}: target 2DZkoZH8WMEM: site.cookies[0].value`)
    expect(refused.stderr).toContain(`targets/shop.yaml:${lineIn(shop, LITERAL_SECRETS[1])}: target 2DZkoZH8WMEM: site.otp_secret`)
    expect(existsSync(join(dir, 'saved.json'))).toBe(false)
    const others = ['--id', '5HnBvC3xZaQw', '--id', '9fGh2Kd8LmQz', '--id', '3kLx8Qy7Pb2m']
    expect(keep('plan --out', await cli(em, dir, ['plan', '--debug', '--out', 'saved.json', ...others], ENV_SECRETS)).code).toBe(0)
    texts['saved plan'] = readFileSync(join(dir, 'saved.json'), 'utf8')
    expect(keep('apply --plan', await cli(em, dir, ['apply', '--debug', '--plan', 'saved.json', '--auto-approve'], ENV_SECRETS)).code).toBe(0)
    expect(keep('drift after apply', await cli(em, dir, ['drift', '--debug', ...others], ENV_SECRETS)).code).toBe(0)

    // Apply in every format, each time with something to do: a failure (400) and rotated secrets.
    // The failure is an agent id the service does not have, through a service that lists no agents
    // (one that does lets the plan refuse it at its line, before anything is sent).
    writeFileSync(shop, readFileSync(shop, 'utf8').replace('scanning_agent: {id: 3kLx8Qy7Pb2m}', 'scanning_agent: {id: NoSuchAgent1}'))
    const unlisted = await startProxy(em.url, async (request, forward) => (request.method === 'GET' && request.path === '/scanning-agents/' ? { status: 404, body: '{"detail": "Not found."}' } : forward()))
    for (const format of ['text', 'json', 'markdown', 'github'] as const) {
      const rotated = { ...ENV_SECRETS, SHOP_BASIC_AUTH_PASSWORD: `${ENV_SECRETS.SHOP_BASIC_AUTH_PASSWORD}-${format}`, SCANSYNC_API_URL: unlisted.url }
      em.mutate('target', '5HnBvC3xZaQw', { site: { api_scan_settings: { api_login_payload: `hand-edited-${format}` } } })
      const run = keep(`apply ${format}`, await apply(em, dir, { format, debug: true }, rotated))
      expect(run.code).toBe(1)
      if (format === 'text') expect(run.out).toContain('Invalid pk "NoSuchAgent1"')
    }
    texts['state file'] = (() => {
      try {
        return readFileSync(join(dir, '.scansync', 'state.json'), 'utf8')
      } catch {
        return ''
      }
    })()
    if (obfuscate) expect(texts['state file']).toContain('OBFUSCATED_')
    texts['request log'] = JSON.stringify(em.requests())
    expect(texts['plan text (stderr)']).toContain('debug: GET ')
    expect(Object.values(texts).join('')).toContain('(sensitive)')

    const rotatedValues = ['text', 'json', 'markdown', 'github'].map((f) => `${ENV_SECRETS.SHOP_BASIC_AUTH_PASSWORD}-${f}`)
    const handEdited = ['text', 'json', 'markdown', 'github'].map((f) => `hand-edited-${f}`)
    const secrets = [TOKEN, ...Object.values(ENV_SECRETS), ...LITERAL_SECRETS, ...SEED_SECRETS, ...rotatedValues, ...handEdited]
    const hits = Object.entries(texts).flatMap(([name, text]) => secrets.filter((s) => text.includes(s)).map((s) => `${s} in ${name}`))
    expect(hits).toEqual([])
  })
})

// Issue 13, points 2, 8 and 9: what a service's error text can carry, through the real CLI in
// every format (the apply report on stdout, the error lines on stderr).
describe('hostile error text from the service', () => {
  const FORMATS = ['text', 'json', 'markdown', 'github'] as const
  const json = (status: number, body: unknown): ProxyResponse => ({ status, body: typeof body === 'string' ? body : JSON.stringify(body) })

  /** `apply --auto-approve` through the real CLI in every format, each write answered by `answer`. */
  async function applyEverywhere(secrets: Record<string, string>, answer: (body: string) => ProxyResponse): Promise<Record<string, string>> {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) => (request.method === 'GET' ? forward() : answer(request.body)))
    const dir = exampleConfig()
    const texts: Record<string, string> = {}
    // The formats side by side: each run only reads and is refused, so they cannot disturb each other.
    const runs = await Promise.all(FORMATS.map((format) => cli(em, dir, ['apply', '--auto-approve', '--format', format], { ...secrets, SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })))
    runs.forEach((run, i) => {
      expect(run.code).toBe(1)
      texts[`apply ${FORMATS[i]} (stdout)`] = run.stdout
      texts[`apply ${FORMATS[i]} (stderr)`] = run.stderr
    })
    return texts
  }
  const everything = (texts: Record<string, string>) => Object.values(texts).join('\n')

  it('a secret with a line break, echoed in a 400 (text) or 500 (JSON) body, is redacted before the text is folded', { timeout: 60_000 }, async () => {
    const secret = 'multi\nline-Secret-8k'
    let n = 0
    const texts = await applyEverywhere({ SHOP_LOGIN_PASSWORD: secret }, () =>
      n++ % 2 === 0 ? { status: 400, body: `rejected: value ${secret} refused`, contentType: 'text/plain' } : json(500, { detail: `value ${secret} refused` }),
    )
    const all = everything(texts)
    expect(all).toContain('(sensitive)')
    for (const piece of ['line-Secret-8k', 'multi line', 'multi\\nline']) expect(all).not.toContain(piece)
  })

  it('the token in a 500 body longer than 300 characters is not cut into a leaking piece', { timeout: 60_000 }, async () => {
    const detail = `${'x'.repeat(280)} ${TOKEN} ${'y'.repeat(60)}`
    const all = everything(await applyEverywhere({}, () => json(500, { detail })))
    expect(all).toContain('the service failed (HTTP 500)')
    expect(all).not.toContain(TOKEN.slice(0, 6))
  })

  it.each([
    ['a 3-character secret', 'q7z'],
    ['a common word', 'service'],
  ])('%s echoed by the service: the answer is shown by its status and field names', { timeout: 60_000 }, async (_what, secret) => {
    let n = 0
    const texts = await applyEverywhere({ SHOP_LOGIN_PASSWORD: secret }, () =>
      n++ % 2 === 0 ? json(400, { detail: `wrong ${secret} given`, site: { name: [`wrong ${secret} given`] } }) : json(500, { detail: `wrong ${secret} given` }),
    )
    const all = everything(texts)
    expect(all).toContain('withheld')
    expect(all).toContain('site.name')
    expect(all).not.toContain('given')
    expect(all).not.toContain('(sensitive) given')
  })

  it('a 400 body nested 200,000 deep gives a clear error, not a stack overflow', { timeout: 60_000 }, async () => {
    const deep = `{"site": ${'['.repeat(200_000)}"x"${']'.repeat(200_000)}}`
    const all = everything(await applyEverywhere({}, () => json(400, deep)))
    expect(all).toContain('nested more than 64 levels deep')
    expect(all).not.toMatch(/call stack|unexpected failure/i)
  })

  it('control characters (U+202E, NUL, ESC) in ids and messages are escaped in every error line and report', { timeout: 60_000 }, async () => {
    const evil = 'id\u202eevil\u0000\u001b[2J'
    const texts = await applyEverywhere({}, () => json(500, { detail: `target ${evil} is locked` }))
    // And an error line of plan, from a read.
    const em = await emulator()
    const proxy = await startProxy(em.url, async () => json(500, { detail: `target ${evil} is locked` }))
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(run.code).toBe(1)
    texts['plan (stderr)'] = run.stderr
    for (const [place, text] of Object.entries(texts)) {
      expect(text, place).not.toMatch(/[\u0000\u202e]|\u001b\[2J/)
    }
    expect(run.stderr).toContain('id\\u202eevil\\u0000\\u001b[2J')
    expect(texts['apply text (stdout)']).toContain('\\u202e')
  })
})
