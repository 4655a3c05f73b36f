import { describe, expect, it } from 'vitest'
import { call, emulator } from './helpers.js'

const OBFUSCATED = /^OBFUSCATED_[0-9a-f]+$/

describe('emulator obfuscation', () => {
  it('returns every flagged value, and otp_secret, as OBFUSCATED_<hash>', async () => {
    const em = await emulator({ obfuscate: true })
    const site = (await call(em, 'GET', '/targets/TargetA11111/')).json.site
    expect(site.basic_auth).toEqual({ username: 'scanner', password: expect.stringMatching(OBFUSCATED), password_is_sensitive: true })
    expect(site.headers[0].value).toMatch(OBFUSCATED)
    expect(site.headers[1].value).toBe('plain')
    expect(site.otp_secret).toMatch(OBFUSCATED)
    expect(site.api_scan_settings.api_login_payload).toMatch(OBFUSCATED)
    // An empty secret stays empty.
    expect((await call(em, 'GET', '/targets/TargetB22222/')).json.site.otp_secret).toBe('')
    // The stored value is the real one.
    expect((em.get('target', 'TargetA11111') as any).site.basic_auth.password).toBe('basic-secret')
  })

  it('gives the same token for the same value and another for another value, in lists and writes alike', async () => {
    const em = await emulator({ obfuscate: true })
    const before = (await call(em, 'GET', '/targets/TargetA11111/')).json.site
    const listed = (await call(em, 'GET', '/targets/')).json.results.find((t: { id: string }) => t.id === 'TargetA11111').site
    expect(listed.basic_auth.password).toBe(before.basic_auth.password)
    const same = await call(em, 'PATCH', '/targets/TargetA11111/', { site: { basic_auth: { username: 'scanner', password: 'basic-secret' } } })
    expect(same.json.site.basic_auth.password).toBe(before.basic_auth.password)
    const changed = await call(em, 'PATCH', '/targets/TargetA11111/', {
      site: { basic_auth: { username: 'scanner', password: 'other-secret' }, form_login: [{ name: 'pw', value: 'basic-secret', value_is_sensitive: true }] },
    })
    expect(changed.json.site.basic_auth.password).toMatch(OBFUSCATED)
    expect(changed.json.site.basic_auth.password).not.toBe(before.basic_auth.password)
    expect(changed.json.site.form_login[0].value).toBe(before.basic_auth.password)
    expect(JSON.stringify(changed.json)).not.toMatch(/other-secret|basic-secret/)
  })

  it('leaves a value alone once its flag is false, and shows everything without --obfuscate', async () => {
    const em = await emulator({ obfuscate: true })
    const answer = await call(em, 'PATCH', '/targets/TargetA11111/', { site: { basic_auth: { username: 'u', password: 'visible', password_is_sensitive: false } } })
    expect(answer.json.site.basic_auth.password).toBe('visible')
    const plain = await emulator()
    expect((await call(plain, 'GET', '/targets/TargetA11111/')).json.site).toMatchObject({ basic_auth: { password: 'basic-secret' }, otp_secret: 'otp-secret' })
  })
})
