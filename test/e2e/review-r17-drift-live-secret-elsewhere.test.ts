// Review round 17 (drift): a secret the service holds in clear on one resource (a password whose
// flag is true) never prints, whichever resource's value quotes it: a drift of an asset's comment,
// an agent's name, or a target no file declares, pasting a target's password by hand; and, with
// --unmanaged, whichever listed resource holds it. Review round 22 (attacks on this round's
// escaping): the printed form of a value now writes format characters (a zero-width joiner in an
// emoji, a zero-width non-joiner in Persian, a soft hyphen) as `\u200d`, and the redaction looked
// for a secret only as it is, in JSON or URL forms: such a password, pasted by hand into another
// resource, printed whole in drift and plan (text, github, markdown). It knows the printed form too.
import { describe, expect, it, vi } from 'vitest'
import { Redaction } from '../../src/core/redaction.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli, emulator, EXAMPLE_SECRETS, exampleConfig, exampleSeed, plan, tempdir } from './helpers.js'

const PASSWORD = 'Hand-Pw-r17-7Kq9zX'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop}
assets:
  - id: 9fGh2Kd8LmQz
    comment: fine
agents:
  - id: 3kLx8Qy7Pb2m
    name: lisbon
`

/**
 * The configuration applied, then by hand: `holder`'s basic-auth password (flagged, answered in
 * clear), pasted into a declared asset's comment and into `agent`'s name.
 */
async function appliedThenPasted(holder: string, agent: string, password = PASSWORD) {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': CONFIG })
  expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
  em.mutate('target', holder, { site: { basic_auth: { username: 'scanner', password, password_is_sensitive: true } } })
  em.mutate('asset', '9fGh2Kd8LmQz', { comment: `the password is ${password}` })
  em.mutate('agent', agent, { name: `agent ${password}` })
  return { em, dir }
}

describe('drift: a live secret quoted by another resource', () => {
  it.each(['text', 'json', 'github', 'markdown'])('is not printed (--format %s)', async (format) => {
    const { em, dir } = await appliedThenPasted('2DZkoZH8WMEM', '3kLx8Qy7Pb2m')
    em.mutate('target', '9XcVbN5mQwEr', { site: { name: `Promo ${PASSWORD}` } })
    const drift = await cli(em, dir, ['drift', '--unmanaged', '--format', format])
    expect(drift.code).toBe(2)
    // Still reported: the comment and the name drifted, and the target is not declared.
    expect(drift.stdout).toContain('9fGh2Kd8LmQz')
    expect(drift.stdout).toContain('3kLx8Qy7Pb2m')
    expect(drift.stdout).toContain('9XcVbN5mQwEr')
    expect(drift.stdout + drift.stderr).not.toContain(PASSWORD)
    const plan = await cli(em, dir, ['plan', '--format', format])
    expect(plan.stdout + plan.stderr).not.toContain(PASSWORD)
  })

  // drift --unmanaged reads every target and agent whole: the password of a target no file
  // declares must not print where another listed resource quotes it either (the second review).
  it.each(['text', 'json'])('held by a target no file declares, is not printed by drift --unmanaged (--format %s)', async (format) => {
    const { em, dir } = await appliedThenPasted('9XcVbN5mQwEr', '6NbVcX4zLkJh')
    const drift = await cli(em, dir, ['drift', '--unmanaged', '--format', format])
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout).toContain('6NbVcX4zLkJh')
    expect(drift.stdout).toContain('9fGh2Kd8LmQz')
    expect(drift.stdout + drift.stderr).not.toContain(PASSWORD)
  })

  it('is not saved in a plan file either, which apply --plan then applies', async () => {
    const { em, dir } = await appliedThenPasted('2DZkoZH8WMEM', '3kLx8Qy7Pb2m')
    const saved = await cli(em, dir, ['plan', '--out', 'saved.json'])
    expect(saved.code, saved.stderr).toBe(0)
    expect(readFileSync(join(dir, 'saved.json'), 'utf8')).not.toContain(PASSWORD)
    const applied = await cli(em, dir, ['apply', '--plan', 'saved.json', '--auto-approve'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout + applied.stderr).not.toContain(PASSWORD)
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'])).code).toBe(0)
  })
})

// Each secret the redaction learns makes its next look-up build its forms anew: learnt one resource
// at a time, as they were read, a plan that asks it about each resource's texts (rules do) took
// time quadratic in the secrets (2,000 passwords: seconds; 8,000: minutes).
describe('the live secrets read', () => {
  it('are taught to the redaction at once, after the reads, not one resource at a time', async () => {
    const seed = exampleSeed()
    for (const [i, target] of seed.targets!.entries()) target.site!.basic_auth = { username: 'scanner', password: `Live-Pw-${i}-7Kq9zX`, password_is_sensitive: true }
    const em = await emulator({ seed })
    const ids = seed.targets!.map((target) => target.id)
    const dir = tempdir({ 'c.yaml': `targets:\n${ids.map((id) => `  - id: ${id}\n    site: {desc: changed}\n`).join('')}` })
    const add = vi.spyOn(Redaction.prototype, 'add')
    try {
      const run = await plan(em, dir)
      expect(run.code, run.err).toBe(0)
      const taught = add.mock.calls.filter(([values]) => [...values].some((value) => value.startsWith('Live-Pw-')))
      expect(taught).toHaveLength(1)
      expect([...taught[0]![0]].filter((value) => value.startsWith('Live-Pw-')).sort()).toEqual(ids.map((_, i) => `Live-Pw-${i}-7Kq9zX`).sort())
    } finally {
      add.mockRestore()
    }
  })
})

const WITH_FORMAT_CHARACTERS = ['Hand-Pw-👩\u200d💻-7Kq9zX', 'Hand-Pw-می\u200cخواهم-7Kq9zX', 'Hand-Pw-Ünter\u00adschrift-7Kq9zX']

describe('a live secret holding a format character, quoted by another resource', () => {
  it.each(WITH_FORMAT_CHARACTERS.flatMap((password) => ['text', 'json', 'github', 'markdown'].map((format) => [password, format])))('is not printed (%j, --format %s)', async (password, format) => {
    const { em, dir } = await appliedThenPasted('2DZkoZH8WMEM', '3kLx8Qy7Pb2m', password)
    for (const command of ['drift', 'plan']) {
      const run = await cli(em, dir, [command, '--format', format])
      expect(run.code, run.stderr).toBe(command === 'drift' ? 2 : 0)
      // Still reported, with the secret masked.
      expect(run.stdout).toContain('9fGh2Kd8LmQz')
      expect(run.stdout).toContain('3kLx8Qy7Pb2m')
      expect(run.stdout).toContain('the password is (sensitive)')
      expect(run.stdout + run.stderr).not.toContain('Hand-Pw')
      expect(run.stdout + run.stderr).not.toContain('7Kq9zX')
    }
  })
})
