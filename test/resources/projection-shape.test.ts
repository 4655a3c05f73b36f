// Each kind's projection runs once for every live resource a plan reads. What it builds must keep
// V8's fast properties: a target's copy built member by member turned into a dictionary (V8 stops
// giving fast properties to an object after a dozen members added by key), at several times the
// memory and with slower reads in the comparison after it. Checked in a process of its own with
// V8's test intrinsics (`--allow-natives-syntax`), on answers of the size the service sends.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { KINDS } from '../../src/resources/index.js'
import { ensureBuilt } from '../config/helpers.js'

const execFileAsync = promisify(execFile)

/** A target answer with as many members as the service's (32 at the top, 46 in site), api_scan_settings inside site. */
function bigTarget(): Record<string, unknown> {
  const target: Record<string, unknown> = { id: 'T1' }
  for (let i = 0; i < 24; i++) target[`extra_${i}`] = i
  const site: Record<string, unknown> = { name: 'Shop', url: 'https://shop.example.com/' }
  for (let i = 0; i < 40; i++) site[`setting_${i}`] = `value ${i}`
  site.api_scan_settings = { api_schema_type: 'openapi' }
  site.stack = [{ name: 'nginx' }]
  Object.assign(target, {
    site,
    scan_profile: { id: 'normal' },
    labels: [{ id: 'L1', name: 'production', color: 'red' }],
    scanning_agent: { id: 'A1', name: 'agent' },
    blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2] },
    fail_fast: true,
  })
  return target
}

describe("a kind's projection", () => {
  it('keeps the members of a target in their order, the reshaped ones last', () => {
    const projected = KINDS.target.project(bigTarget())
    const extras = Array.from({ length: 24 }, (_, i) => `extra_${i}`)
    expect(Object.keys(projected)).toEqual(['id', ...extras, 'fail_fast', 'site', 'api_scan_settings', 'scan_profile', 'labels', 'scanning_agent', 'blackout_period'])
    expect(Object.keys(projected.site as object)).not.toContain('api_scan_settings')
    expect(projected.api_scan_settings).toEqual({ api_schema_type: 'openapi' })
  })

  it('keeps an answer\'s "__proto__" member as a member: no missing field is read through it', () => {
    const answer = JSON.parse('{"id": "T1", "site": {"name": "Shop", "__proto__": {"url": "https://inherited.example/"}}, "__proto__": {"fail_fast": true}}') as Record<string, unknown>
    const projected = KINDS.target.project(answer)
    expect(Object.getPrototypeOf(projected)).toBe(Object.prototype)
    expect(projected.fail_fast).toBeUndefined()
    expect(Object.getPrototypeOf(projected.site)).toBe(Object.prototype)
    expect((projected.site as Record<string, unknown>).url).toBeUndefined()
  })

  it("keeps fast properties for answers of the service's size, for every kind", async () => {
    await ensureBuilt()
    const kinds = fileURLToPath(new URL('../../dist/resources/index.js', import.meta.url))
    const script = [
      `const { KINDS } = await import(${JSON.stringify(kinds)})`,
      `const target = KINDS.target.project(${JSON.stringify(bigTarget())})`,
      "const asset = KINDS.asset.project(Object.fromEntries([['id', 'A1'], ...Array.from({ length: 30 }, (_, i) => ['field_' + i, i]), ['labels', [{ name: 'x' }]], ['owners', []]]))",
      "const agent = KINDS.agent.project(Object.fromEntries([['id', 'G1'], ...Array.from({ length: 30 }, (_, i) => ['field_' + i, i]), ['teams', [{ id: 'Tm1' }]]]))",
      'console.log(JSON.stringify({ target: %HasFastProperties(target), site: %HasFastProperties(target.site), asset: %HasFastProperties(asset), agent: %HasFastProperties(agent) }))',
    ].join('\n')
    const { stdout } = await execFileAsync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script])
    expect(JSON.parse(stdout)).toEqual({ target: true, site: true, asset: true, agent: true })
  })
})
