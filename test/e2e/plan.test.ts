// Issue 4, end to end: plan and drift against the emulator through the real CLI (exit codes,
// flags, formats, errors) and in-process where spawning adds nothing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import { ensureBuilt } from '../config/helpers.js'
import { apply, cli, emulator, envFor, exampleConfig, EXAMPLE_SECRETS, FAST_HTTP, plan, runCli, tempdir, TOKEN, writes } from './helpers.js'
import { LIST_PATHS, startProxy } from './proxy.js'

beforeAll(ensureBuilt, 120_000)

const validatePlan = createAjv().getSchema('plan.schema.json')!

/** The 1-based line of `needle` in a file. */
const lineIn = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1

/**
 * A configuration that matches the example seed as it stands, written the way a person writes
 * it, which is not the way the service answers: labels in another order and without their
 * colours, a URL with an upper-case host and a default port, HH:MM for HH:MM:SS, a scan profile
 * by id where the service answers an object, "" for null, teams as bare ids.
 */
const MATCHING_SEED = `
targets:
  - id: 5HnBvC3xZaQw
    type: api
    site:
      name: Payments API
      url: HTTPS://API.Example.com:443/payments/
    api_scan_settings:
      api_schema_type: openapi
      media_type: application/json
      custom_api_parameters:
        - {name: tenant, value: acme}
    labels: [api, production]
    scan_profile: sp-api-deep
    blackout_period: {begin: "08:00", cease: "18:00", weekdays: [7, 6], timezone: UTC, enabled: false}
    scanning_agent: null
  - id: 7QwErTy2UiOp
    site: {name: Shop (staging), url: "https://staging.shop.example.com"}
    labels: [{name: staging, color: "#FBCA04"}]
    scan_profile: lightning
    include_deduplicated_endpoints: false
assets:
  - id: 9fGh2Kd8LmQz
    state: ACTIVE
    owners: [platform-team]
    comment: ""
    labels: []
agents:
  - id: 3kLx8Qy7Pb2m
    name: dc-lisbon-agent
    teams: [Tm8Kq2Xa9Lp3]
  - id: 2PqRsT6uVwXy
    teams: [{id: TmQ4Ww7Ee2Rr}]
`

describe('a configuration that matches the service', () => {
  it('plan --detailed-exitcode exits 0 and the service receives no write (written unlike the service answers)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': MATCHING_SEED })
    const run = await cli(em, dir, ['plan', '--detailed-exitcode'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('No changes. Plan: 0 to change, 5 unchanged.\n')
    expect(em.requests().length).toBeGreaterThan(0)
    expect(writes(em)).toEqual([])
  })

  it.each([false, true])('after an apply of examples/config, plan --detailed-exitcode and drift exit 0, no write (obfuscate: %s)', async (obfuscate) => {
    const em = await emulator({ obfuscate })
    const dir = exampleConfig()
    expect((await apply(em, dir, {}, EXAMPLE_SECRETS)).code).toBe(0)
    em.clearRequests()
    const [planned, drift] = await Promise.all([
      cli(em, dir, ['plan', '--detailed-exitcode'], EXAMPLE_SECRETS),
      cli(em, dir, ['drift', '--format', 'json'], EXAMPLE_SECRETS),
    ])
    expect(planned).toMatchObject({ code: 0, stderr: '' })
    expect(planned.stdout).toContain('No changes. Plan: 0 to change, 8 unchanged.')
    expect(drift).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(drift.stdout)).toMatchObject({ changes: [], summary: { change: 0, unchanged: 8 } })
    expect(writes(em)).toEqual([])
  })
})

describe('a configuration with changes', () => {
  it('plan exits 2 with --detailed-exitcode, 0 without; drift exits 2', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const [detailed, plain, drift] = await Promise.all([
      // In a child: the exit codes as bin/run.js gives them to a shell.
      runCli(['plan', '--detailed-exitcode'], { cwd: dir, env: envFor(em), spawn: true }),
      runCli(['plan'], { cwd: dir, env: envFor(em), spawn: true }),
      runCli(['drift'], { cwd: dir, env: envFor(em), spawn: true }),
    ])
    expect(detailed.code).toBe(2)
    expect(plain.code).toBe(0)
    expect(drift.code).toBe(2)
    expect(plain.stdout).toBe(detailed.stdout)
    expect(plain.stdout).toContain('~ target 2DZkoZH8WMEM "Shop (production)"')
    expect(plain.stdout).toContain('    site.name: "Shop" -> "Shop (production)"')
    expect(plain.stdout).toContain('Plan: 3 to change, 5 unchanged.')
    expect(drift.stdout).toContain('Drift: 3 resources differ from the configuration, 5 in sync.')
    expect(writes(em)).toEqual([])
  })

  it('--format json: the contract shape, valid against schemas/plan.schema.json, on stdout alone', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '--format', 'json', '--detailed-exitcode'])
    expect(run).toMatchObject({ code: 2, stderr: '' })
    const document = JSON.parse(run.stdout)
    expect(validatePlan(document), JSON.stringify(validatePlan.errors)).toBe(true)
    expect(document.format_version).toBe(1)
    expect(document.summary).toEqual({ create: 0, change: 3, unchanged: 5 })
    expect(document.changes.map((c: { kind: string; id: string }) => `${c.kind} ${c.id}`)).toEqual([
      'target 2DZkoZH8WMEM',
      'asset 9fGh2Kd8LmQz',
      'agent 3kLx8Qy7Pb2m',
    ])
    expect(document.changes[0]).toMatchObject({ kind: 'target', id: '2DZkoZH8WMEM', name: 'Shop (production)', action: 'update', method: 'PATCH', path: '/targets/2DZkoZH8WMEM/' })
    expect(document.changes[0].fields[0]).toMatchObject({ path: 'site.name', before: 'Shop', after: 'Shop (production)', sensitive: false })
    expect(document.changes[1]).toMatchObject({ method: 'PUT', path: '/discovery/assets/9fGh2Kd8LmQz/' })
  })

  it('--format markdown: a summary table and a collapsible section per resource', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '--format', 'markdown'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(/^\|.*\|$/m)
    expect(run.stdout.match(/<details>/g)).toHaveLength(3)
    expect(run.stdout).toContain('2DZkoZH8WMEM')
    expect(run.stdout).toContain('site.name')
  })

  it('--format github: one annotation per changed field at its YAML file and line, then the summary', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const [planned, drift] = await Promise.all([cli(em, dir, ['plan', '--format', 'github']), cli(em, dir, ['drift', '--format', 'github'])])
    expect(planned).toMatchObject({ code: 0, stderr: '' })
    const lines = planned.stdout.trimEnd().split('\n')
    expect(lines.at(-1)).toBe('Plan: 3 to change, 5 unchanged.')
    const shop = join(dir, 'targets', 'shop.yaml')
    const at = (file: string, line: number) => new RegExp(`^::warning file=${file.replace(/[/.]/g, '\\$&')},line=${line},`)
    const nameLine = lines.find((l) => l.includes('site.name'))!
    expect(nameLine).toMatch(at('targets/shop.yaml', lineIn(shop, 'name: Shop (production)')))
    expect(nameLine).toContain('::site.name: "Shop" -> "Shop (production)"')
    const labels = lines.find((l) => l.includes('2DZkoZH8WMEM') && l.includes('labels'))!
    expect(labels).toMatch(at('targets/shop.yaml', lineIn(shop, 'labels: [production, {name: pci')))
    const state = lines.find((l) => l.includes('::state:'))!
    expect(state).toMatch(at('assets.yaml', lineIn(join(dir, 'assets.yaml'), 'state: ARCHIVED')))
    const teams = lines.find((l) => l.includes('::teams:'))!
    expect(teams).toMatch(at('agents.yaml', lineIn(join(dir, 'agents.yaml'), 'teams: [Tm8Kq2Xa9Lp3')))
    // Drift is an error annotation: a drift check fails the job.
    expect(drift.code).toBe(2)
    expect(drift.stdout).toMatch(/^::error file=targets\/shop\.yaml,line=\d+,/m)
  })
})

describe('errors: a message, exit 1, and the token in no output', () => {
  const expectError = (run: { code: number | null; stdout: string; stderr: string }, message: RegExp | string) => {
    expect(run.code).toBe(1)
    if (typeof message === 'string') expect(run.stderr).toContain(message)
    else expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/^\s+at /m)
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
  }

  it('a wrong token: authentication failed, and neither token is shown', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const wrong = 'wr0ng-Token-c0ffee-1234'
    const run = await cli(em, dir, ['plan'], { SCANSYNC_API_TOKEN: wrong })
    expectError(run, /authentication failed \(HTTP 401\): check SCANSYNC_API_TOKEN/)
    expect(run.stdout + run.stderr).not.toContain(wrong)
  })

  it('an unknown id: 404 names the kind and the id', async () => {
    const em = await emulator()
    const dir = tempdir({ 'a.yaml': 'targets:\n  - id: NoSuchTgt001\n    site: {name: x}\n' })
    // At the line of its id, as a configuration problem (design.md: "<kind> <id> not found").
    expectError(await cli(em, dir, ['plan']), 'a.yaml:2:9: target NoSuchTgt001 not found')
  })

  it('a 400 on a read: the service rejected the request, with its words', async () => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) =>
      request.path === '/targets/' ? { status: 400, body: JSON.stringify({ length: ['Ensure this value is less than or equal to 50.'] }) } : forward(),
    )
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_API_URL: proxy.url })
    expectError(run, 'Error: the target list: the service rejected the request (HTTP 400): length: Ensure this value is less than or equal to 50.')
  })

  it('5xx on every request: service unavailable after the retries', async () => {
    const em = await emulator({ faults: [{ type: '503' }] })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan'], { SCANSYNC_MAX_ATTEMPTS: '3' })
    expectError(run, /service unavailable \(HTTP 503\) after 3 attempts/)
    expect(em.requests().every((r) => r.fault === '503')).toBe(true)
  })

  it('a 502 with an HTML page: service unavailable, no parse error', async () => {
    const em = await emulator({ faults: [{ type: '502-html' }] })
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_MAX_ATTEMPTS: '2' })
    expectError(run, /service unavailable \(HTTP 502\) after 2 attempts/)
    expect(run.stderr).not.toMatch(/JSON|<html>/)
  })

  it('no answer in time: a timeout', async () => {
    const em = await emulator({ faults: [{ type: 'slow', delayMs: 3000 }] })
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_TIMEOUT_MS: '150', SCANSYNC_MAX_ATTEMPTS: '2' })
    expectError(run, 'Error: the target list: no complete answer from the service within 150 ms (2 attempts)')
  })

  it('an http:// URL to a host that is not loopback is refused before any connection', async () => {
    const dir = exampleConfig()
    const run = await runCli(['plan', '--api-url', 'http://scanner.example.com/api/v1'], { cwd: dir, env: { SCANSYNC_API_TOKEN: TOKEN, ...FAST_HTTP } })
    expectError(run, 'https://')
    expect(run.stderr).toContain('--insecure-http')
    expect(run.stderr).not.toMatch(/could not reach|ENOTFOUND|attempts/)
  })

  it('SCANSYNC_API_TOKEN missing: said so, nothing sent', async () => {
    const em = await emulator()
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_API_TOKEN: undefined })
    expectError(run, 'SCANSYNC_API_TOKEN is not set')
    expect(em.requests()).toEqual([])
  })

  it('no service URL: said so', async () => {
    const em = await emulator()
    const run = await cli(em, exampleConfig(), ['plan'], { SCANSYNC_API_URL: undefined })
    expectError(run, '--api-url')
  })

  it('an empty service URL is named as such: --api-url "" with SCANSYNC_API_URL set, or the variable empty; nothing sent', async () => {
    const em = await emulator()
    expectError(await cli(em, exampleConfig(), ['plan', '--api-url', '']), '--api-url is empty: give the service URL, or leave the flag out to use SCANSYNC_API_URL')
    expectError(await cli(em, exampleConfig(), ['plan'], { SCANSYNC_API_URL: '' }), 'SCANSYNC_API_URL is empty: set it to the service URL, or pass --api-url URL')
    expect(em.requests()).toEqual([])
  })

  it('a header, label or team declared twice: an error at the second, for validate and plan, and no request', async () => {
    const em = await emulator()
    const yaml = [
      'targets:',
      '  - id: 2DZkoZH8WMEM',
      '    site:',
      '      headers:',
      '        - {name: X-Scanner, value: a}',
      '        - {name: X-Scanner, value: b}',
      '    labels: [production, {name: production, color: red}]',
      'agents:',
      '  - id: 3kLx8Qy7Pb2m',
      '    teams: [Tm8Kq2Xa9Lp3, {id: Tm8Kq2Xa9Lp3}]',
      '',
    ].join('\n')
    const dir = tempdir({ 'a.yaml': yaml })
    const expected = [
      'a.yaml:6:11: target 2DZkoZH8WMEM: site.headers[1]: name "X-Scanner" is declared twice (first at line 5); each name may appear once',
      'a.yaml:7:26: target 2DZkoZH8WMEM: labels[1]: name "production" is declared twice (first at line 7); each name may appear once',
      'a.yaml:10:27: agent 3kLx8Qy7Pb2m: teams[1]: id "Tm8Kq2Xa9Lp3" is declared twice (first at line 10); each id may appear once',
    ]
    const [validate, planned] = await Promise.all([cli(em, dir, ['validate']), cli(em, dir, ['plan'])])
    expect(validate.code).toBe(1)
    expect(validate.stderr.trimEnd().split('\n')).toEqual([...expected, '3 errors; nothing was sent.'])
    expectError(planned, expected.join('\n'))
    expect(em.requests()).toEqual([])
  })

  it('an invalid configuration: FILE:LINE:COLUMN diagnostics, and no request at all', async () => {
    const em = await emulator()
    const dir = tempdir({ 'a.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {nme: x}\n', 'b.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ${UNSET_VARIABLE_X}\n' })
    for (const command of ['plan', 'drift', 'apply']) {
      const run = await cli(em, dir, [command, '--auto-approve'].slice(0, command === 'apply' ? 2 : 1))
      expectError(run, /^a\.yaml:3:\d+: target 2DZkoZH8WMEM: site\.nme: unknown field/m)
      expect(run.stderr).toMatch(/^b\.yaml:3:\d+: .*UNSET_VARIABLE_X is not set/m)
      expect(run.stderr).toContain('nothing was sent')
    }
    expect(em.requests()).toEqual([])
  })
})

describe('reads', () => {
  it('2,000 declared targets are read through the list pages, not one GET each', async () => {
    const count = 2000
    const ids = Array.from({ length: count }, (_, i) => `Bulk${String(i).padStart(8, '0')}`)
    const em = await emulator({
      latencyMs: 20,
      seed: { targets: ids.map((id, i) => ({ id, site: { name: `Site ${i}`, url: `https://s${i}.example.com/` } })) },
    })
    const yaml = 'targets:\n' + ids.map((id, i) => `  - id: ${id}\n    site: {name: Site ${i}, url: "https://S${i}.example.com"}\n`).join('')
    const dir = tempdir({ 'bulk.yaml': yaml })
    const started = performance.now()
    const run = await plan(em, dir, { detailedExitcode: true })
    const wallMs = performance.now() - started
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    const requests = em.requests()
    const lists = requests.filter((r) => r.method === 'GET' && r.path === '/targets/')
    expect(lists).toHaveLength(count / 100)
    expect(new Set(lists.map((r) => r.query.page))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => String(i + 1))))
    expect(lists.every((r) => r.query.length === '100')).toBe(true)
    expect(requests).toHaveLength(count / 100)
    console.log(`2,000 declared targets, 20 ms latency: ${requests.length} requests (${lists.length} list pages), plan in ${Math.round(wallMs)} ms wall time`)
  })

  it('a declared id missing from the list is confirmed by GET: 404 names it', async () => {
    const em = await emulator()
    const dir = tempdir({
      'a.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: Shop}\n  - id: 7QwErTy2UiOp\n    site: {name: x}\n  - id: Missing00001\n    site: {name: y}\n',
    })
    const run = await plan(em, dir)
    expect(run.code).toBe(1)
    expect(run.err).toContain('target Missing00001 not found')
    const gets = em.requests().map((r) => `${r.path}${r.query.page ? `?page=${r.query.page}` : ''} ${r.status}`)
    expect(gets).toEqual(['/targets/?page=1 200', '/targets/Missing00001/ 404'])
  })

  it.each([404, 405])('a list endpoint answering %i: every declared resource is read by id', async (status) => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) =>
      request.method === 'GET' && LIST_PATHS.has(request.path) ? { status, body: JSON.stringify({ detail: status === 404 ? 'Not found.' : 'Method "GET" not allowed.' }) } : forward(),
    )
    const run = await plan(em, exampleConfig(), { format: 'json' }, { SCANSYNC_API_URL: proxy.url })
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.out).summary).toEqual({ create: 0, change: 3, unchanged: 5 })
    expect(em.requests().map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /discovery/assets/4TrEwQ9aSdFg/',
      'GET /discovery/assets/8YuIoP3lKjHg/',
      'GET /discovery/assets/9fGh2Kd8LmQz/',
      'GET /scanning-agents/3kLx8Qy7Pb2m/',
      'GET /scanning-agents/6NbVcX4zLkJh/',
      'GET /targets/2DZkoZH8WMEM/',
      'GET /targets/5HnBvC3xZaQw/',
      'GET /targets/7QwErTy2UiOp/',
      // The team ids the agents list are checked against the team list (not one of these lists).
      'GET /teams/',
    ])
  })

  it('examples/config: one list page for the three targets and the three assets, a GET each for the two agents, one team list page for their team ids', async () => {
    const em = await emulator()
    const run = await plan(em, exampleConfig())
    expect(run.code).toBe(0)
    const paths = em.requests().map((r) => `${r.method} ${r.path}`).sort()
    // The targets' agent is declared (read by id): no agent list is read to check it.
    expect(paths).toEqual(['GET /discovery/assets/', 'GET /scanning-agents/3kLx8Qy7Pb2m/', 'GET /scanning-agents/6NbVcX4zLkJh/', 'GET /targets/', 'GET /teams/'])
  })
})

