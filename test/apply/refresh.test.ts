// What an apply hands on besides its requests: the planned resources (their fingerprint worked
// out only when a re-read asks for it) and the declared secret values an old state is re-keyed by.
import { describe, expect, it } from 'vitest'
import { declaredSecretValues, plannedFrom } from '../../src/apply/refresh.js'
import { buildPlan, liveKey } from '../../src/plan/build-plan.js'
import { emptyState, resourceKey, secretContext } from '../../src/secrets/state.js'
import { declare } from '../helpers/declare.js'

const target = (id: string, password: string) =>
  declare('target', { id, site: { name: `Shop ${id}`, basic_auth: { username: 'u', password: '${PW}', password_is_sensitive: true } } }, { PW: password })

describe('declaredSecretValues', () => {
  it('gives each declared resource’s secret values by its key, then its other texts (list keys a state may hold by their hash), and none for a key nothing declares', () => {
    const values = declaredSecretValues([target('T1', 'pw-one'), target('T2', 'pw-two'), declare('asset', { id: 'A1', comment: 'no secret' })])
    expect(values(resourceKey('target', 'T2'))).toEqual(['pw-two', 'Shop T2', 'u'])
    expect(values(resourceKey('target', 'T1'))).toEqual(['pw-one', 'Shop T1', 'u'])
    expect(values(resourceKey('asset', 'A1'))).toEqual(['no secret'])
    expect(values(resourceKey('target', 'T9'))).toEqual([])
  })
})

describe('plannedFrom', () => {
  it('pairs each change with its comparison; the fingerprint is the comparison’s', () => {
    const desired = declare('target', { id: 'T1', site: { name: 'New name' } })
    const live = new Map([[liveKey('target', 'T1'), { id: 'T1', site: { name: 'Old name' } }]])
    const { plan, changed } = buildPlan([desired], live, secretContext(emptyState(), 'token'))
    const [ready] = plannedFrom(changed, plan.changes)
    expect(ready!.planned.change).toBe(plan.changes[0])
    expect(ready!.planned.desired).toBe(desired)
    expect(ready!.planned.fingerprint).toBe(changed[0]!.fingerprint)
    expect(ready!.planned.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })
})
