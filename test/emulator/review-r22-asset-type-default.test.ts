// The interface document: a discovered asset's `type` is "`web` (Web) or `api` (API); default
// `api`". The emulator answered `web` for an asset its seed (or a seed file given to
// `scansync emulator --seed`) left without a type, so a rule about API assets, tried locally
// against the emulator, skipped the assets the service would hold as APIs.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir, TOKEN } from '../e2e/helpers.js'
import { call } from './helpers.js'

const SEED = { assets: [{ id: 'AssetNoType1', name: 'untyped.example.com', state: 'ACTIVE' }] }

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

describe('an asset seeded without a type', () => {
  it('is answered with the documented default type, api, the one the service gives', async () => {
    const em = await emulator({ seed: SEED })
    const read = await call(em, 'GET', '/discovery/assets/AssetNoType1/', undefined, { authorization: `JWT ${TOKEN}` })
    expect(read.status).toBe(200)
    expect(read.json.type).toBe('api')
    expect(em.get('asset', 'AssetNoType1')).toMatchObject({ type: 'api' })
  })

  it('is checked by an audit rule about API assets', async () => {
    const em = await emulator({ seed: SEED })
    const dir = tempdir({
      'policies.yaml': `policies:
  - name: api-assets-have-owners
    kind: asset
    when: {required: [type], properties: {type: {const: api}}}
    require: {required: [owners]}
`,
    })
    const { code, stdout } = await cli(em, dir, ['audit', '--format', 'json'])
    const document = JSON.parse(stdout)
    expect(document.summary).toMatchObject({ checked: 1, rules: 1, errors: 1 })
    expect(document.violations).toEqual([expect.objectContaining({ policy: 'api-assets-have-owners', kind: 'asset', id: 'AssetNoType1' })])
    expect(code).toBe(2)
  })
})
