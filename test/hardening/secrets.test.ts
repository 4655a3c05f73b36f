// Issue 8, secrets. test/e2e/secrets.test.ts sweeps plan, drift and apply in every format with
// --debug (and one saved plan). This sweeps what it leaves out (validate, schema, import, and
// plan --out / apply --plan in every format), and a service that echoes what it was sent: in
// every case, no secret value and no token in stdout, stderr, saved plans, state files, imported
// files or the emulator's request log, in clear or escaped as JSON writes it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { clientRedaction } from '../../src/client/index.js'
import { variableValues } from '../../src/config/interpolate.js'
import type { DesiredResource } from '../../src/core/types.js'
import { escapeControls, isWeakSecret, Redaction } from '../../src/core/redaction.js'
import { withRedaction } from '../../src/core/io.js'
import { runPlan } from '../../src/cli/run/plan.js'
import { captureIo } from '../e2e/helpers.js'
import { secretValues } from '../../src/secrets/redact.js'
import { ensureBuilt } from '../config/helpers.js'
import { apply, cli, emulator, runCli, tempdir, TOKEN } from '../e2e/helpers.js'
import { startProxy } from '../e2e/proxy.js'
import { ENV_SECRETS, LITERAL_SECRETS, secretConfig, SEED_SECRETS, seed } from '../e2e/secret-fixtures.js'

beforeAll(ensureBuilt, 120_000)

const FORMATS = ['text', 'json', 'markdown', 'github'] as const

/**
 * Every form a secret could be printed in: as is, escaped inside a JSON string (with and without
 * \\u escapes), URL-encoded, with its whitespace folded (as a shortened message folds it), and,
 * for a long one, its first 10 characters (what shortening a message at 300 characters can leave).
 */
const forms = (secret: string): string[] => {
  const json = JSON.stringify(secret).slice(1, -1)
  const ascii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  const start = secret.length >= 16 ? [secret.slice(0, 10)] : []
  return [...new Set([secret, json, ascii, encodeURIComponent(secret), secret.replace(/\s+/g, ' '), ...start])]
}

/** "<secret form> in <place>" for each secret found anywhere. */
function leaks(texts: Record<string, string>, secrets: string[]): string[] {
  return Object.entries(texts).flatMap(([place, text]) => secrets.flatMap((secret) => forms(secret).filter((form) => text.includes(form)).map((form) => `${JSON.stringify(form)} in ${place}`)))
}

function filesUnder(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [join(entry.parentPath, entry.name).slice(dir.length + 1), readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
  )
}

describe('the commands the e2e sweep leaves out', () => {
  it('validate, schema, import, and plan --out then apply --plan in every format, with --debug: no secret, no token', { timeout: 60_000 }, async () => {
    const em = await emulator({ seed: seed() })
    const dir = secretConfig()
    const texts: Record<string, string> = {}
    const keep = <T extends { stdout: string; stderr: string }>(name: string, run: T): T => {
      texts[`${name} (stdout)`] = run.stdout
      texts[`${name} (stderr)`] = run.stderr
      return run
    }

    expect(keep('validate', await cli(em, dir, ['validate'], ENV_SECRETS)).code).toBe(0)
    // Invalid next to secrets: a secret written as a number, one from a variable in a field with a pattern.
    const invalid = tempdir({
      'a.yaml': [
        'targets:',
        '  - id: 2DZkoZH8WMEM',
        '    site:',
        '      basic_auth: {username: scanner, password: 918273645546}',
        '      headers: [{name: X-Key, value: 564738291, value_is_sensitive: true}]',
        '      otp_login_sequence_totp_value: "${SHOP_LOGIN_PASSWORD}"',
        '    labels: [{name: x, color: "${SHOP_API_KEY}"}]',
        '',
      ].join('\n'),
    })
    const refused = keep('validate (invalid)', await runCli(['validate'], { cwd: invalid, env: { ...ENV_SECRETS, SCANSYNC_API_TOKEN: TOKEN } }))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('site.basic_auth.password must be a string (got an integer; quote it)')
    expect(keep('schema', await cli(em, dir, ['schema'], ENV_SECRETS)).code).toBe(0)

    // import: the service answers the secrets in clear; they are written as ${VARIABLE} references.
    expect(keep('import --all', await cli(em, dir, ['import', '--kind', 'target,asset,agent', '--all', '--debug'], ENV_SECRETS)).code).toBe(0)
    expect(texts['import --all (stdout)']).toContain('${TARGET_2DZKOZH8WMEM_')
    const imported = tempdir()
    expect(keep('import --out', await cli(em, imported, ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM', '--id', '5HnBvC3xZaQw', '--debug', '--out', 'cfg'], ENV_SECRETS)).code).toBe(0)

    // A saved plan and its apply in every format; the payload (a secret) changes on the service each time.
    const others = ['--id', '5HnBvC3xZaQw', '--id', '9fGh2Kd8LmQz', '--id', '3kLx8Qy7Pb2m']
    for (const format of FORMATS) {
      em.mutate('target', '5HnBvC3xZaQw', { site: { api_scan_settings: { api_login_payload: `edited-Payload-${format}` } } })
      const saved = keep(`plan --out (${format})`, await cli(em, dir, ['plan', '--debug', '--format', format, '--out', `saved-${format}.json`, ...others], ENV_SECRETS))
      expect(saved.code, saved.stderr).toBe(0)
      const applied = keep(`apply --plan (${format})`, await cli(em, dir, ['apply', '--debug', '--format', format, '--plan', `saved-${format}.json`, '--auto-approve'], ENV_SECRETS))
      expect(applied.code, applied.stderr).toBe(0)
      expect(applied.stderr).toContain('debug: PATCH ')
    }
    for (const [name, text] of Object.entries(filesUnder(dir))) if (!name.endsWith('.yaml')) texts[`file ${name}`] = text
    for (const [name, text] of Object.entries(filesUnder(imported))) texts[`imported ${name}`] = text
    texts['request log'] = JSON.stringify(em.requests())
    // No state file: the service answers its secrets in clear, so an apply has none to record (and writes none).
    expect(Object.keys(texts)).toEqual(expect.arrayContaining(['file saved-json.json', 'imported cfg/targets.yaml']))

    const payloads = FORMATS.map((f) => `edited-Payload-${f}`)
    const secrets = [TOKEN, ...Object.values(ENV_SECRETS), ...LITERAL_SECRETS, ...SEED_SECRETS, ...payloads, '918273645546', '564738291']
    expect(leaks(texts, secrets)).toEqual([])
  })
})

describe('a service that echoes what it was sent', () => {
  /** Secrets with characters JSON escapes: a quote, a backslash, a letter outside ASCII, a line break. */
  const AWKWARD = {
    SHOP_BASIC_AUTH_PASSWORD: 'qu"ote\\back-ü-Secret-1a',
    SHOP_LOGIN_PASSWORD: 'line\nbreak-Secret-2b',
    PAYMENTS_CLIENT_SECRET: 'plain-Client-Secret-3c',
    SHOP_API_KEY: 'ключ-Header-Secret-4d',
  }

  it('its error messages, whatever their status and shape, are redacted before printing, in every format and with --debug', { timeout: 60_000 }, async () => {
    const em = await emulator({ seed: seed() })
    // Answers every write with an error quoting the request: the raw body, and each value by itself.
    const proxy = await echoingProxy(em.url, [400, 422, 409, 500, 418], (request, values, status) => {
      if (status === 422) return { status, body: `rejected: ${request.body}`, contentType: 'text/plain' }
      const quoted = values.map((v) => `"${v}" is not allowed here.`)
      return { status, body: JSON.stringify({ detail: `Invalid request body: ${request.body}`, site: { basic_auth: { password: quoted.slice(0, 3) }, form_login: [{ value: quoted }] }, non_field_errors: [request.body] }) }
    })
    const dir = secretConfig()
    const texts: Record<string, string> = {}
    for (const format of FORMATS) {
      const run = await apply(em, dir, { format, debug: true }, { ...AWKWARD, SCANSYNC_API_URL: proxy.url })
      expect(run.code).toBe(1)
      texts[`apply ${format} (stdout)`] = run.out
      texts[`apply ${format} (stderr)`] = run.err
    }
    const viaCli = await cli(em, dir, ['apply', '--auto-approve', '--debug'], { ...AWKWARD, SCANSYNC_API_URL: proxy.url })
    expect(viaCli.code).toBe(1)
    texts['apply via the CLI (stdout)'] = viaCli.stdout
    texts['apply via the CLI (stderr)'] = viaCli.stderr
    expect(texts['apply text (stdout)']).toContain('is not allowed here')
    expect(texts['apply text (stdout)']).toContain('(sensitive)')
    expect(leaks(texts, [TOKEN, ...Object.values(AWKWARD), ...LITERAL_SECRETS])).toEqual([])
  })
})

/**
 * A proxy in front of the emulator that forwards reads and answers every write with an error of
 * each status in turn, made by `answer` from the request and every string value it carried.
 */
function echoingProxy(
  target: string,
  statuses: number[],
  answer: (request: { body: string }, values: string[], status: number) => Awaited<ReturnType<Parameters<typeof startProxy>[1]>>,
) {
  let n = 0
  return startProxy(target, async (request, forward) => {
    if (request.method === 'GET') return forward()
    const values: string[] = []
    JSON.stringify(JSON.parse(request.body), (_, value: unknown) => (typeof value === 'string' && values.push(value), value))
    return answer(request, values, statuses[n++ % statuses.length])
  })
}

const makeRedactor = (secrets: string[]) => {
  const redaction = new Redaction()
  redaction.add(secrets)
  return redaction.redact
}

describe('a service whose error texts are long, or echo short secrets', () => {
  /** Every write answered with an error of each status, its own words first and then 300 characters, then the echo. */
  async function echoSweep(secrets: Record<string, string>): Promise<Record<string, string>> {
    const em = await emulator({ seed: seed() })
    const proxy = await echoingProxy(em.url, [400, 500, 422, 418, 409], (request, values, status) => {
      const long = `Refused. ${'Field rules were checked in order. '.repeat(9)}Token ${TOKEN}. Values: ${values.join(' / ')} ${request.body}`
      if (status === 422) return { status, body: long, contentType: 'text/plain' }
      return { status, body: JSON.stringify({ detail: long, site: { name: [long] } }) }
    })
    const dir = secretConfig()
    const texts: Record<string, string> = {}
    for (const format of FORMATS) {
      const run = await apply(em, dir, { format, debug: true }, { ...secrets, SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })
      expect(run.code).toBe(1)
      texts[`apply ${format} (stdout)`] = run.out
      texts[`apply ${format} (stderr)`] = run.err
    }
    const viaCli = await cli(em, dir, ['apply', '--auto-approve', '--debug'], { ...secrets, SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(viaCli.code).toBe(1)
    texts['apply via the CLI (stdout)'] = viaCli.stdout
    texts['apply via the CLI (stderr)'] = viaCli.stderr
    return texts
  }

  it('error texts longer than 300 characters: secrets and the token are redacted before the text is shortened', { timeout: 60_000 }, async () => {
    const secrets = { ...ENV_SECRETS, SHOP_LOGIN_PASSWORD: 'line\nbreak-Secret-5e' }
    const texts = await echoSweep(secrets)
    expect(texts['apply text (stdout)']).toContain('Field rules were checked in order.')
    expect(texts['apply text (stdout)']).toContain('(sensitive)')
    expect(leaks(texts, [TOKEN, ...Object.values(secrets), ...LITERAL_SECRETS])).toEqual([])
  })

  it('a secret shorter than 6 characters, or a common word: the service texts are withheld, nothing is substituted', { timeout: 60_000 }, async () => {
    for (const short of ['q7z', 'Password']) {
      const secrets = { ...ENV_SECRETS, SHOP_API_KEY: short }
      const texts = await echoSweep(secrets)
      const all = Object.values(texts).join('\n')
      expect(all).toContain('withheld')
      expect(all).not.toContain('Field rules were checked')
      expect(leaks(texts, [TOKEN, ...Object.values(secrets), ...LITERAL_SECRETS])).toEqual([])
    }
  })
})

describe('what the echo sweep found, one by one', () => {
  it('a secret with a quote, a backslash or a line break is redacted where a service quotes it inside JSON (it was missed)', () => {
    const secret = 'qu"ote\\back\nline-ü'
    const redact = makeRedactor([secret])
    const echoed = JSON.stringify({ detail: `body: ${JSON.stringify({ password: secret })}` })
    for (const text of [secret, JSON.stringify(secret), echoed, JSON.parse(echoed).detail, JSON.stringify(secret).replace('ü', '\\u00fc'), encodeURIComponent(secret)]) {
      expect(redact(text)).not.toContain('ote')
    }
    // A lone surrogate (a YAML escape can write one) has no URL form: no crash.
    expect(makeRedactor(['\ud800-lone-Secret'])('x \ud800-lone-Secret y')).toBe('x (sensitive) y')
  })

  it('the token, escaped inside JSON, is redacted too', () => {
    const token = 'tok"en\\Value-1234'
    const redact = clientRedaction(token).redact
    expect(redact(`echo: ${JSON.stringify(token)}`)).toBe('echo: "(redacted)"')
  })

  it("a variable's value inside a longer value (a JSON payload, a header) is a secret by itself (a payload quoted back leaked it)", () => {
    const resource: DesiredResource = {
      kind: 'target',
      id: 'T1',
      fields: { site: { headers: [{ name: 'Authorization', value: 'Bearer tok-Header-Secret' }] }, api_scan_settings: { api_login_payload: '{"secret": "payload-Secret-9"}', api_login_payload_is_sensitive: true } },
      templates: new Map([
        ['site.headers[0].value', 'Bearer ${API_KEY}'],
        ['api_scan_settings.api_login_payload', '{"secret": "${CLIENT_SECRET:-x}"}'],
      ]),
      source: { file: 'a.yaml', line: 1, column: 1 },
      locate: () => ({ file: 'a.yaml', line: 1, column: 1 }),
    }
    expect(secretValues([resource]).sort()).toEqual(['Bearer tok-Header-Secret', 'payload-Secret-9', 'tok-Header-Secret', '{"secret": "payload-Secret-9"}'].sort())
  })

  it.each([
    ['${A}', 'value', ['value']],
    ['Bearer ${A}', 'Bearer abc', ['abc']],
    ['${A}:${B}', 'user:pass', ['user', 'pass']],
    ['${A}${B}', 'joined', ['joined']],
    ['a $${literal} ${A} b', 'a ${literal} x-y b', ['x-y']],
    ['${A:-fall}-${B}', 'fall-x', ['fall', 'x']],
    ['no variable', 'no variable', []],
    ['prefix ${A}', 'other', []],
  ])('variableValues(%j, %j) is %j', (template, value, expected) => {
    expect(variableValues(template, value)).toEqual(expected)
  })

  it('variableValues is linear, whatever the template (no backtracking)', { timeout: 30_000 }, () => {
    const template = '${A}x'.repeat(2_000)
    expect(variableValues(template, 'x'.repeat(200_000)).join('')).toBe('x'.repeat(200_000 - 2_000))
  })
})

describe('the one redaction step', () => {
  it('escapes control characters, NUL and bidirectional overrides, keeping line feeds, tabs, colours and the progress bar', () => {
    expect(escapeControls('id\u202eevil\u0000 \r \u0085 \u2066 \u001b[2J \u001b]0;title\u0007')).toBe(
      'id\\u202eevil\\u0000 \\u000d \\u0085 \\u2066 \\u001b[2J \\u001b]0;title\\u0007',
    )
    const own = 'a\tb\n\u001b[31mred\u001b[39m \u001b[?25l\u001b[2K\u001b[1G\u001b[?25h\u001b7\u001b8'
    expect(escapeControls(own)).toBe(own)
  })

  it('short and common secrets are weak; others are substituted in every written form', () => {
    for (const weak of ['q7z', 'abcde', 'service', 'Password', 'changeme', 'admin', 'default', 'secret', 'test']) expect(isWeakSecret(weak), weak).toBe(true)
    expect(isWeakSecret('hunter2-x')).toBe(false)
    const redaction = new Redaction('token-123456')
    redaction.add(['q7z', 'service', 'hunter2-x'])
    expect(redaction.withholds()).toBe(true)
    expect(redaction.redact('the service q7z token-123456 hunter2-x')).toBe('the service q7z (redacted) (sensitive)')
    expect(redaction.mentionsWeak('site.Q7Z')).toBe(true)
    expect(new Redaction('token-123456').withholds()).toBe(false)
  })

  // A review of the fifteenth round: each call worked out every weak secret's forms again, so that a
  // password per target, each short, made a plan of 2,000 targets nine times slower.
  it('with thousands of weak secrets, a text is found to hold one as it is with a few (each form, any case)', () => {
    const secrets = Array.from({ length: 2000 }, (_, i) => `q${i}`)
    const many = new Redaction()
    many.add(secrets)
    const few = new Redaction()
    few.add(['q17', 'q1999', 'ab"c'])
    for (const redaction of [many, few]) {
      expect(redaction.mentionsWeak('login Q17 here')).toBe(true)
      expect(redaction.mentionsWeak('x-q1999')).toBe(true)
      expect(redaction.holds('no secret in this one')).toBe(false)
    }
    // A long text (an answer quoted in an error), as repetitive as an attacker may type it.
    const long = 'q'.repeat(20_000)
    expect(many.mentionsWeak(long + 'Q1999')).toBe(true)
    expect(many.mentionsWeak(long)).toBe(false)
    many.add(['ab"c'])
    // The forms known are worked out again when a secret is added.
    expect(many.mentionsWeak('{"v": "AB\\"C"}')).toBe(true)
    expect(few.mentionsWeak('{"v": "AB\\"C"}')).toBe(true)
    expect(many.mentionsWeak('q')).toBe(false)
  })

  it('a weak secret is found in the forms written from its own case: URL-encoded (`a%2Fb`) and JSON-escaped (`\\u00c9t\\u00e9`)', () => {
    const redaction = new Redaction()
    redaction.add(['a/b', 'Été'])
    expect(redaction.mentionsWeak('password=a%2Fb')).toBe(true)
    expect(redaction.mentionsWeak('{"v": "\\u00c9t\\u00e9"}')).toBe(true)
    expect(redaction.mentionsWeak('ete')).toBe(false)
  })

  it('with thousands of secrets, one linear scan gives what replacing each in turn gives', { timeout: 30_000 }, () => {
    const secrets = Array.from({ length: 2000 }, (_, i) => `secret-${i}-value-${'x'.repeat(i % 7)}`)
    const text = Array.from({ length: 8_000 }, (_, i) => (i % 3 === 0 ? secrets[(i * 7919) % secrets.length] : `word${i}`)).join(' ')
    const many = new Redaction()
    many.add(secrets)
    const started = performance.now()
    const scanned = many.redact(text)
    expect(performance.now() - started).toBeLessThan(5_000)
    let expected = text
    for (const secret of [...secrets].sort((a, b) => b.length - a.length)) expected = expected.split(secret).join('(sensitive)')
    expect(scanned).toBe(expected)
  })

  it('a use case redacts the Io a test passes (in-process runs are redacted too), and wraps it once', async () => {
    // A path argument that is the token (a script mixing up its arguments), with a bidi override.
    const io = captureIo({ env: { SCANSYNC_API_TOKEN: 'inproc-Token-77a1' }, cwd: tempdir() })
    expect(await runPlan({ mode: 'plan', paths: ['inproc-Token-77a1\u202e'], format: 'text' }, io)).toBe(1)
    expect(io.err()).toContain('(redacted)\\u202e')
    expect(io.err()).not.toContain('inproc-Token-77a1')
    expect(io.err()).not.toContain('\u202e')
    const wrapped = withRedaction(io)
    expect(withRedaction(wrapped)).toBe(wrapped)
  })
})
