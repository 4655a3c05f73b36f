import { describe, expect, it } from 'vitest'
import { AUTH, call, emulator } from './helpers.js'

const T = '/targets/TargetA11111/'

describe('emulator validation: 400 bodies as Django REST framework writes them', () => {
  it('nests field errors like the request', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, { site: { name: 'x'.repeat(256), url: 'not a url' } })
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ site: { name: ['Ensure this field has no more than 255 characters.'], url: ['Enter a valid URL.'] } })
  })

  it('gives lists of objects as arrays with {} for the valid items', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, { labels: [{ name: 'ok' }, { color: '#fff' }, 'bare'] })
    expect(answer.json).toEqual({
      labels: [{}, { name: ['This field is required.'] }, { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }],
    })
  })

  it('gives lists of plain values by index, and required members of nested objects', async () => {
    const em = await emulator()
    expect((await call(em, 'PATCH', T, { blackout_period: { begin: '22:00', cease: '6:00', weekdays: [1, 'x', 9] } })).json).toEqual({
      blackout_period: {
        cease: ['Time has wrong format. Use one of these formats instead: hh:mm.'],
        weekdays: { '1': ['A valid integer is required.'], '2': ['Ensure this value is less than or equal to 7.'] },
      },
    })
    expect((await call(em, 'PATCH', T, { blackout_period: { begin: '22:00' } })).json).toEqual({
      blackout_period: { cease: ['This field is required.'], weekdays: ['This field is required.'] },
    })
  })

  it('words wrong types, nulls, blanks and choices as DRF does', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, {
      fail_fast: 'yes',
      report_type: 'nope',
      labels: 'prod',
      scan_profile: '',
      type: null,
      site: { name: null, otp_digits: '6' },
    })
    expect(answer.json).toEqual({
      fail_fast: ['Must be a valid boolean.'],
      report_type: ['"nope" is not a valid choice.'],
      labels: ['Expected a list of items but got type "str".'],
      scan_profile: ['This field may not be blank.'],
      type: ['This field may not be null.'],
      site: { name: ['This field may not be null.'], otp_digits: ['A valid integer is required.'] },
    })
    expect((await call(em, 'PATCH', T, { site: 'x' })).json).toEqual({ site: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] } })
  })

  it('puts errors about the body itself under non_field_errors', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, [1, 2])
    expect(answer.status).toBe(400)
    expect(answer.json).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] })
  })

  it('reports api_scan_settings errors where the request put them', async () => {
    const em = await emulator()
    expect((await call(em, 'PATCH', T, { site: { api_scan_settings: { token_prefix: 'x'.repeat(17) } } })).json).toEqual({
      site: { api_scan_settings: { token_prefix: ['Ensure this field has no more than 16 characters.'] } },
    })
    expect((await call(em, 'PATCH', T, { api_scan_settings: { media_type: 'text/plain' } })).json).toEqual({
      api_scan_settings: { media_type: ['"text/plain" is not a valid choice.'] },
    })
  })

  it('requires the asset name on PUT and checks the agent body', async () => {
    const em = await emulator()
    expect((await call(em, 'PUT', '/discovery/assets/AssetA111111/', { state: 'ACTIVE' })).json).toEqual({ name: ['This field is required.'] })
    expect((await call(em, 'PUT', '/discovery/assets/AssetA111111/')).json).toEqual({ name: ['This field is required.'] })
    expect((await call(em, 'PUT', '/discovery/assets/AssetA111111/', { name: 'a', state: 'GONE', owners: [{ name: '' }] })).json).toEqual({
      state: ['"GONE" is not a valid choice.'],
      owners: [{ name: ['This field may not be blank.'] }],
    })
    expect((await call(em, 'PATCH', '/scanning-agents/AgentA111111/', { name: 'n'.repeat(256), teams: [{}] })).json).toEqual({
      name: ['Ensure this field has no more than 255 characters.'],
      teams: [{ id: ['This field is required.'] }],
    })
  })

  it('rejects unknown scanning agents and teams as DRF rejects an unknown primary key', async () => {
    const em = await emulator()
    const agent = await call(em, 'PATCH', T, { scanning_agent: { id: 'NoSuchAgent1' } })
    expect(agent.status).toBe(400)
    expect(agent.json).toEqual({ scanning_agent: ['Invalid pk "NoSuchAgent1" - object does not exist.'] })
    const teams = await call(em, 'PATCH', '/scanning-agents/AgentA111111/', { teams: [{ id: 'TeamOne11111' }, { id: 'NoSuchTeam11' }] })
    expect(teams.json).toEqual({ teams: ['Invalid pk "NoSuchTeam11" - object does not exist.'] })
    expect(em.get('agent', 'AgentA111111')).toMatchObject({ teams: [{ id: 'TeamOne11111' }] })
  })

  it('applies nothing of a rejected request', async () => {
    const em = await emulator()
    const before = em.get('target', 'TargetA11111')
    expect((await call(em, 'PATCH', T, { site: { name: 'New' }, report_type: 'nope' })).status).toBe(400)
    expect(em.get('target', 'TargetA11111')).toEqual(before)
  })

  it('answers 400 "JSON parse error" for a body that is not JSON, without quoting it', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, '{"site": {"basic_auth": {"password": "hunter2-secret"}}')
    expect(answer.status).toBe(400)
    expect(answer.json.detail).toMatch(/^JSON parse error - /)
    expect(answer.text).not.toContain('hunter2')
    expect((await call(em, 'PATCH', T, 'hunter2-secret')).text).not.toContain('hunter2')
  })

  it('answers 415 for a body that is not declared as JSON', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, '{"fail_fast": false}', { ...AUTH, 'content-type': 'text/plain' })
    expect(answer.status).toBe(415)
    expect(answer.json).toEqual({ detail: 'Unsupported media type "text/plain" in request.' })
    expect((await call(em, 'PATCH', T, '{"fail_fast": false}', { ...AUTH, 'content-type': 'application/json; charset=utf-8' })).status).toBe(200)
  })

  it('answers 413 for a body over 1 MiB', async () => {
    const em = await emulator()
    const answer = await call(em, 'PATCH', T, { site: { desc: 'x'.repeat(1024 * 1024) } })
    expect(answer.status).toBe(413)
    expect(answer.json).toEqual({ detail: 'Request body too large.' })
    expect((em.get('target', 'TargetA11111') as { site: { desc: string } }).site.desc).toBe('first')
  })

  it('never echoes a sensitive value in an error', async () => {
    const em = await emulator()
    const secret = 'S3cr3t-'.repeat(40)
    const answer = await call(em, 'PATCH', T, {
      site: { basic_auth: { username: 'u', password: secret, password_is_sensitive: true }, otp_login_sequence_totp_value: 'S3cr3t-xyz', otp_secret: 7 },
      api_scan_settings: { api_login_payload: secret + secret.repeat(20) },
    })
    expect(answer.status).toBe(400)
    expect(answer.text).not.toContain('S3cr3t')
    expect(answer.json).toEqual({
      site: {
        basic_auth: { password: ['Ensure this field has no more than 255 characters.'] },
        otp_login_sequence_totp_value: ['This value must be empty or 6 to 8 characters.'],
        otp_secret: ['Not a valid string.'],
      },
      api_scan_settings: { api_login_payload: ['Ensure this field has no more than 4096 characters.'] },
    })
  })
})
