// Review round 19 (the secrets state file over a repository's life): staging and production
// configurations sharing one --state, each job with its own SCANSYNC_STATE_KEY (or its own token).
// The second job's secrets had no record in the state, so each plan showed them "not yet tracked";
// apply sent them, said nothing, and recorded nothing (the file is keyed by the other key), so every
// plan after was again "not yet tracked" and every apply sent them again, with no word of why; drift
// even said to run apply once. Every command now says that they cannot be recorded, and why.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS, tempdir } from './helpers.js'

it('a secret the state cannot record with this key is said, in plan, apply and drift', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const shared = join(tempdir(), 'state.json')
  const staging = { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'staging-Key-0a1b2c3d4e5f' }
  const production = { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'production-Key-9f8e7d6c5b' }
  const first = await cli(em, dir, ['apply', '--auto-approve', '--state', shared, join(dir, 'targets', 'shop.yaml')], staging)
  expect(first.code, first.stderr).toBe(0)
  const before = readFileSync(shared, 'utf8')

  const payments = join(dir, 'targets', 'payments-api.yaml')
  const field = 'target 5HnBvC3xZaQw api_scan_settings.api_login_payload'
  const apply = await cli(em, dir, ['apply', '--auto-approve', '--state', shared, payments], production)
  expect(apply.code, apply.stderr).toBe(0)
  expect(apply.stdout).toContain('(not yet tracked)')
  expect(apply.stderr).toContain('is not recorded by an apply')
  expect(apply.stderr).toContain(field)
  expect(apply.stderr).toContain('the state was written with another key')
  // Nothing recorded: the file keeps one key.
  expect(readFileSync(shared, 'utf8')).toBe(before)

  const plan = await cli(em, dir, ['plan', '--state', shared, payments], production)
  expect(plan.code, plan.stderr).toBe(0)
  expect(plan.stdout).toContain('(not yet tracked)')
  expect(plan.stderr).toContain('is not recorded by an apply')
  expect(plan.stderr).toContain(field)

  const drift = await cli(em, dir, ['drift', '--state', shared, payments], production)
  expect(drift.code, drift.stderr).toBe(0)
  expect(drift.stderr).toContain('is not recorded by an apply')
  expect(drift.stderr).not.toContain('Run scansync apply once')
  for (const text of [apply.stdout, apply.stderr, plan.stdout, plan.stderr, drift.stdout, drift.stderr, readFileSync(shared, 'utf8')]) {
    for (const secret of [...Object.values(EXAMPLE_SECRETS), staging.SCANSYNC_STATE_KEY, production.SCANSYNC_STATE_KEY]) expect(text).not.toContain(secret)
  }
})
