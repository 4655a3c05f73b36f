// Review round 17 (policy gate): rules see a resource as it will be after the apply, and an apply's
// requests are built from the read made after the confirmation (README, "Secrets and the state
// file": a hand change meanwhile to an undeclared field is kept). A hand change made while the
// prompt waits that makes the resource break a rule of level error must refuse the apply, nothing
// sent, as the same change made before the plan does.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { runApply } from '../../src/cli/run/apply.js'
import { captureIo, emulator, envFor, tempdir, writes } from '../e2e/helpers.js'
import type { Emulator } from '../../src/emulator/index.js'
import { whenWaiting } from '../helpers/creation-lock.js'

/** The shop (blackout window enabled on the service): its name changes; the rule reads the undeclared window. */
const CONFIG = (level: string) => `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop renamed}
policies:
  - name: blackout-on
    description: Targets pause scans in office hours
    kind: target
    require:
      required: [blackout_period]
      properties: {blackout_period: {properties: {enabled: {const: true}}, required: [enabled]}}
    level: ${level}
`

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

/** A terminal whose user answers yes, once `meanwhile` (a hand change while the prompt waits) is done. */
const confirmedAfter = (em: Emulator, dir: string, meanwhile: () => void) => ({
  ...captureIo({ env: envFor(em), cwd: dir, tty: true }),
  prompt: async () => {
    meanwhile()
    return 'yes'
  },
})

/** By hand: the target's blackout window switched off. */
const blackoutOff = (em: Emulator) =>
  em.mutate('target', '2DZkoZH8WMEM', { blackout_period: { ...(em.get('target', '2DZkoZH8WMEM') as { blackout_period: object }).blackout_period, enabled: false } })

describe('apply on a terminal: the rules checked again on the read after the confirmation', () => {
  it.each(['text', 'json'] as const)('a hand change while the prompt waits breaks a rule of level error: refused, nothing sent (%s)', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG('error') })
    const io = confirmedAfter(em, dir, () => blackoutOff(em))
    const code = await runApply({ paths: ['.'], format }, io)
    expect(writes(em)).toEqual([])
    expect(code).toBe(1)
    const message = 'Targets pause scans in office hours (blackout_period.enabled: must be equal to constant true)'
    expect(io.err()).toContain('nothing was sent')
    if (format === 'text') expect(io.err()).toContain(`policy blackout-on: target 2DZkoZH8WMEM: ${message}`)
    else {
      // The json report carries the violations (not the lines on stderr), each change not sent.
      const report = JSON.parse(io.out())
      expect(report.violations).toEqual([expect.objectContaining({ policy: 'blackout-on', level: 'error', id: '2DZkoZH8WMEM', message })])
      expect(report.changes).toEqual([expect.objectContaining({ id: '2DZkoZH8WMEM', result: 'failed', sent: false, error: 'not sent: the configuration breaks a policy of level error' })])
    }
  })

  it('a warning found on the fresh read is reported and the apply goes on (exit 0)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG('warning') })
    const io = confirmedAfter(em, dir, () => blackoutOff(em))
    const code = await runApply({ paths: ['.'], format: 'json' }, io)
    expect(code, io.err()).toBe(0)
    expect(writes(em)).toHaveLength(1)
    expect(JSON.parse(io.out()).violations).toEqual([expect.objectContaining({ policy: 'blackout-on', level: 'warning' })])
  })

  it('no hand change: the confirmed apply is sent', async () => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': CONFIG('error') })
    const io = confirmedAfter(em, dir, () => undefined)
    expect(await runApply({ paths: ['.'], format: 'text' }, io), io.err()).toBe(0)
    expect(writes(em)).toHaveLength(1)
  })
})

describe('apply that waited for another apply\'s creation lock: the rules checked again on the read after the wait', () => {
  it('a hand change during the wait breaks a rule of level error: refused, nothing sent, the lock released', async () => {
    const { existsSync, mkdirSync, rmSync, writeFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    const em = await emulator()
    const dir = tempdir({
      'config.yaml': `targets:
  - site: {name: New app, url: "https://newapp.example.com/"}
    scan_profile: lightning
assets:
  - id: 4TrEwQ9aSdFg
    state: HIDDEN
policies:
  - name: no-hold
    description: Assets are not put on hold
    kind: asset
    require: {properties: {comment: {not: {const: on hold}}}}
`,
    })
    mkdirSync(join(dir, '.scansync'), { recursive: true })
    const lock = join(dir, '.scansync', 'state.json.create.lock')
    writeFileSync(lock, 'another apply')
    // While the apply waits, someone puts the asset on hold, then the other apply releases the lock.
    let released = false
    const io = whenWaiting(captureIo({ env: envFor(em), cwd: dir }), () => {
      released = true
      em.mutate('asset', '4TrEwQ9aSdFg', { comment: 'on hold' })
      rmSync(lock, { force: true })
    })
    const code = await runApply({ paths: ['.'], format: 'text', autoApprove: true }, io)
    expect(released).toBe(true)
    expect(code).toBe(1)
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
    expect(io.err()).toContain('policy no-hold: asset 4TrEwQ9aSdFg: Assets are not put on hold')
    expect(existsSync(`${lock}`)).toBe(false)
  })
})
