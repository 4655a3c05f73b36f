import { afterEach } from 'vitest'
import { startEmulator, type Emulator, type EmulatorOptions, type EmulatorSeed } from '../../src/emulator/index.js'

export const TOKEN = 'test-token'
export const AUTH = { authorization: `JWT ${TOKEN}` }
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json', accept: 'application/json' }

/** A small account: two teams, two agents, two targets, two assets. */
export function smallSeed(): EmulatorSeed {
  return {
    teams: [
      { id: 'TeamOne11111', name: 'One' },
      { id: 'TeamTwo22222', name: 'Two' },
    ],
    agents: [
      { id: 'AgentA111111', name: 'agent-a', teams: [{ id: 'TeamOne11111' }] },
      { id: 'AgentB222222', name: 'agent-b' },
    ],
    targets: [
      {
        id: 'TargetB22222',
        site: { name: 'Beta', url: 'https://beta.example.com/' },
      },
      {
        id: 'TargetA11111',
        site: {
          name: 'Alpha',
          desc: 'first',
          url: 'https://alpha.example.com/',
          has_basic_auth: true,
          basic_auth: { username: 'scanner', password: 'basic-secret', password_is_sensitive: true },
          headers: [
            { name: 'X-Api-Key', value: 'header-secret', value_is_sensitive: true },
            { name: 'X-Plain', value: 'plain' },
          ],
          otp_secret: 'otp-secret',
          api_scan_settings: { api_login_payload: 'payload-secret', api_login_payload_is_sensitive: true },
        },
        labels: [{ name: 'prod', color: '#ff0000' }, { name: 'web' }],
        scan_profile: 'normal',
        scanning_agent: { id: 'AgentA111111' },
        blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2], timezone: 'UTC', enabled: true },
      },
    ],
    assets: [
      { id: 'AssetA111111', name: 'a.example.com', state: 'ACTIVE', owners: [{ name: 'ops', color: 'blue' }], comment: 'keep', labels: [{ name: 'prod' }] },
      { id: 'AssetB222222', name: 'b.example.com' },
    ],
  }
}

const running: Emulator[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
})

/** An emulator on 127.0.0.1, closed after the test. */
export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const started = await startEmulator({ token: TOKEN, seed: smallSeed(), ...options })
  running.push(started)
  return started
}

export interface Answer {
  status: number
  headers: Headers
  json: any
  text: string
}

/** One request with the test token (unless headers say otherwise); the body is sent as JSON unless a string. */
export async function call(
  em: Emulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<Answer> {
  const response = await fetch(em.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, json, text }
}
