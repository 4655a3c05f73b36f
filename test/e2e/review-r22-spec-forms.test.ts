// The emulator answers some values in another form than the interface document gives them: a
// blackout time as HH:MM:SS (the document: "`time` fields are ISO 8601 times of day in the form
// `HH:MM`"), api_scan_settings inside `site` (the document lists it among the target's top-level
// fields), a scan profile's `builtin` as a boolean ("documented as a string"). The emulator's forms
// are kept (they exercise the normalizers); these runs put a service answering the document's
// forms in front of it, so that plan, apply, drift and import are tested against those too.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir, TOKEN } from './helpers.js'
import { reshapingProxy } from './proxy.js'

const SHOP = '2DZkoZH8WMEM'

/** A target answer of the emulator in the document's forms. */
function asDocumented(target: Record<string, unknown>): void {
  const window = target.blackout_period as Record<string, unknown> | null
  if (window) for (const end of ['begin', 'cease']) if (typeof window[end] === 'string') window[end] = (window[end] as string).slice(0, 5)
  const site = target.site as Record<string, unknown>
  if ('api_scan_settings' in site) {
    target.api_scan_settings = site.api_scan_settings
    delete site.api_scan_settings
  }
  const profile = target.scan_profile as Record<string, unknown> | null
  if (profile && typeof profile === 'object') profile.builtin = String(profile.builtin)
}

describe('a service answering times as HH:MM, api_scan_settings at the top level and builtin as a string', () => {
  it('plans exactly, applies, and plans, drifts and imports clean after', async () => {
    const em = await emulator()
    const proxy = await reshapingProxy(em.url, '/targets/', asDocumented)
    const env = { SCANSYNC_API_URL: proxy.url }
    // The proxy answers as documented.
    const shop = JSON.parse((await (await fetch(`${proxy.url}/targets/${SHOP}/`, { headers: { authorization: `JWT ${TOKEN}` } })).text())) as Record<string, any>
    expect(shop.blackout_period.begin).toBe('22:00')
    expect(shop.site).not.toHaveProperty('api_scan_settings')

    const dir = exampleConfig()
    const shopFile = join(dir, 'targets', 'shop.yaml')
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect((await cli(em, dir, ['plan', '.', '--detailed-exitcode'], env)).stdout).toContain('No changes.')

    // A changed time: exactly that change, sent as HH:MM, then nothing.
    writeFileSync(shopFile, readFileSync(shopFile, 'utf8').replace('begin: "22:00"', 'begin: "21:30"'))
    const planned = await cli(em, dir, ['plan', '.', '--detailed-exitcode'], env)
    expect(planned.code, planned.stderr).toBe(2)
    expect(planned.stdout).toContain('blackout_period.begin: "22:00" -> "21:30"')
    expect(planned.stdout).toContain('Plan: 1 to change')
    em.clearRequests()
    expect((await cli(em, dir, ['apply', '.', '--auto-approve'], env)).code).toBe(0)
    expect(em.requests().find((r) => r.method === 'PATCH')?.body).toMatchObject({ blackout_period: { begin: '21:30', cease: '06:00' } })
    const after = await cli(em, dir, ['plan', '.', '--detailed-exitcode'], env)
    expect(after.code, after.stdout).toBe(0)
    const drift = await cli(em, dir, ['drift', '.'], env)
    expect(drift.code, drift.stdout).toBe(0)

    // Import writes the document's forms, and what it writes plans clean.
    const out = tempdir()
    const imported = await cli(em, out, ['import', '--kind', 'target', '--all', '--out', 'imported'], env)
    expect(imported.code, imported.stderr).toBe(0)
    const yaml = readFileSync(join(out, 'imported', 'targets.yaml'), 'utf8')
    expect(yaml).toContain('begin: "21:30"')
    expect(yaml).toMatch(/\n {4}api_scan_settings:/)
    const clean = await cli(em, join(out, 'imported'), ['plan', '.', '--detailed-exitcode'], env)
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
  })
})
