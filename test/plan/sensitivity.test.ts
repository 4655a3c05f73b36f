// The one sensitivity rule, and the x-sensitive list read from the schemas.
import { describe, expect, it } from 'vitest'
import { buildPlan, liveKey } from '../../src/plan/build-plan.js'
import { KINDS } from '../../src/resources/index.js'
import { emptyState, secretContext } from '../../src/secrets/state.js'
import { allSensitiveFields, sensitiveFields, sensitiveMemberNames } from '../../src/schema/sensitive-fields.js'
import { isCredentialName, isSensitive, isSensitiveMember } from '../../src/schema/sensitivity.js'
import { declaredSecrets } from '../../src/secrets/redact.js'
import { declare } from '../helpers/declare.js'

describe('x-sensitive, read from the schemas', () => {
  it('gives each kind its sensitive fields (no list written by hand)', () => {
    expect(sensitiveFields('target-patch.request.schema.json')).toEqual(['site.otp_secret'])
    expect(KINDS.target.sensitiveFields).toEqual(['site.otp_secret'])
    expect(KINDS.asset.sensitiveFields).toEqual([])
    expect(KINDS.agent.sensitiveFields).toEqual([])
    expect(allSensitiveFields()).toEqual(['site.otp_secret'])
    expect([...sensitiveMemberNames()]).toEqual(['otp_secret'])
  })
})

describe('isCredentialName', () => {
  it.each(['Authorization', 'PROXY-AUTHORIZATION', 'cookie', 'Set-Cookie', 'X-Api-Key', 'x-auth-token', 'client_secret', 'Password', 'JSESSIONID', 'session'])('%s marks a credential', (name) => {
    expect(isCredentialName(name)).toBe(true)
  })
  it.each(['X-Scanner', 'Accept', 'User-Agent', 'email', 42])('%s does not', (name) => {
    expect(isCredentialName(name)).toBe(false)
  })
})

describe('isSensitive', () => {
  const at = (member: string, extra = {}) => isSensitive({ member, rulePath: member, ...extra })
  it('a value from a variable, a field the schemas mark, an obfuscated value, a password', () => {
    expect(at('desc', { fromVariable: true })).toBe(true)
    expect(isSensitive({ member: 'otp_secret', rulePath: 'site.otp_secret', sensitiveFields: ['site.otp_secret'] })).toBe(true)
    expect(at('desc', { values: ['OBFUSCATED_abc'] })).toBe(true)
    expect(at('password', { containers: [{ password_is_sensitive: false }] })).toBe(true)
    expect(at('desc')).toBe(false)
  })
  it('the <member>_is_sensitive sibling on either side: anything but false counts', () => {
    expect(at('value', { containers: [undefined, { value_is_sensitive: true }] })).toBe(true)
    expect(at('value', { containers: [{ value_is_sensitive: 'yes' }] })).toBe(true)
    expect(at('value', { containers: [{ value_is_sensitive: false }] })).toBe(false)
  })
  it('the value of an entry whose name marks a credential, not its name', () => {
    expect(at('value', { containers: [{ name: 'Authorization', value: 'x' }] })).toBe(true)
    expect(at('name', { containers: [{ name: 'Authorization', value: 'x' }] })).toBe(false)
    expect(at('value', { containers: [{ name: 'X-Trace', value: 'x' }] })).toBe(false)
  })
  it('a list item (an index) is sensitive only by a variable', () => {
    expect(isSensitive({ member: 0, rulePath: 'w', fromVariable: true })).toBe(true)
    expect(isSensitive({ member: 0, rulePath: 'w', containers: [{ name: 'Authorization' }] })).toBe(false)
  })
})

describe('isSensitiveMember (the secrets walk asks it for every declared string)', () => {
  it('answers as isSensitive does for a string member of one holder', () => {
    const holders: Array<Record<string, unknown>> = [
      {},
      { name: 'Authorization', value: 'x' },
      { name: 'X-Trace', value: 'x' },
      { name: 42, value: 'x' },
      { value_is_sensitive: true },
      { value_is_sensitive: false },
      { value_is_sensitive: null },
      { desc_is_sensitive: 'yes', desc: 'x' },
      { password_is_sensitive: false, password: 'x' },
      Object.assign(Object.create({ desc_is_sensitive: true }) as object, { desc: 'inherited flags do not count' }),
    ]
    const members = ['value', 'name', 'desc', 'password', 'otp_secret', '__proto__', 'constructor', 'hasOwnProperty']
    const rulePaths = ['', 'desc', 'site.otp_secret', 'site.headers.value']
    const answers = { true: 0, false: 0 }
    for (const holder of holders)
      for (const member of members)
        for (const rulePath of rulePaths)
          for (const fromVariable of [false, true])
            for (const sensitiveFields of [[], ['site.otp_secret']]) {
              const expected = isSensitive({ member, rulePath, containers: [holder], fromVariable, sensitiveFields })
              expect(isSensitiveMember(holder, member, rulePath, fromVariable, sensitiveFields), JSON.stringify({ holder, member, rulePath, fromVariable, sensitiveFields })).toBe(expected)
              answers[String(expected) as 'true' | 'false']++
            }
    expect(answers.true + answers.false).toBe(holders.length * members.length * rulePaths.length * 4)
    // Both answers are given in fair number: the comparison covers each branch of the rule.
    expect(Math.min(answers.true, answers.false)).toBeGreaterThan(100)
  })
})

describe('declaredSecrets asks the one rule', () => {
  it('finds values from variables, flagged values, otp_secret, passwords and credential entries', () => {
    const target = declare(
      'target',
      {
        id: 'T1',
        site: {
          name: '${N}',
          otp_secret: 'OTP',
          basic_auth: { username: 'u', password: 'pw' },
          headers: [{ name: 'Authorization', value: 'Bearer b' }, { name: 'X-Trace', value: 't' }],
          cookies: [{ name: 'c', value: 'flagged', value_is_sensitive: true }],
        },
      },
      { N: 'secret-name' },
    )
    expect(declaredSecrets(target).map((s) => s.place).sort()).toEqual([
      'site.basic_auth.password',
      'site.cookies[0].value',
      'site.headers[0].value',
      'site.name',
      'site.otp_secret',
    ])
  })
})

describe('a display name from a variable', () => {
  it('is (sensitive) in the plan; a literal name stays', () => {
    const live = new Map([[liveKey('target', 'T1'), { id: 'T1', site: { name: 'Old' } }]])
    const planFor = (name: string, env = {}) => buildPlan([declare('target', { id: 'T1', site: { name } }, env)], live, secretContext(emptyState(), 't')).plan
    expect(planFor('${N}', { N: 'Secret Shop' }).changes[0]!.name).toBe('(sensitive)')
    expect(planFor('Shop').changes[0]!.name).toBe('Shop')
  })
})
