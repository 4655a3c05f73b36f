// Review round 20 (the newest changes, attacked): an apply with nothing to send re-keys a secrets
// state written before key ids (keyed by the token) once SCANSYNC_STATE_KEY is set (README: "the
// next apply with the key re-keys it"). An apply confirmed on a terminal that finds, on its read
// after the confirmation, every change already made by hand reports "No changes. Apply: 0 applied,
// …" as an apply with nothing to do, but left the state keyed by the token: after a token rotation
// its secrets could no longer be checked.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { stateKeyId } from '../../src/secrets/state.js'
import { appliedWithLegacyState, captureIo, envFor, EXAMPLE_SECRETS, writes } from '../e2e/helpers.js'

const KEY = { SCANSYNC_STATE_KEY: 'state-Key-r20-5e6f7a8b' }
const ASSET = '4TrEwQ9aSdFg'
const statePath = (dir: string) => join(dir, '.scansync', 'state.json')

it('an apply that finds every change made by hand after the confirmation re-keys a state written before key ids', async () => {
  const { em, dir } = await appliedWithLegacyState()
  // The YAML now wants the asset hidden; someone hides it by hand while the question is on the screen.
  const assets = join(dir, 'assets.yaml')
  const text = readFileSync(assets, 'utf8')
  expect(text).toContain(`id: ${ASSET}\n    state: ACTIVE\n`)
  writeFileSync(assets, text.replace(`id: ${ASSET}\n    state: ACTIVE\n`, `id: ${ASSET}\n    state: HIDDEN\n`))
  const io = captureIo({ env: envFor(em, { ...EXAMPLE_SECRETS, ...KEY }), cwd: dir, tty: true })
  io.prompt = async () => {
    em.mutate('asset', ASSET, { state: 'HIDDEN' })
    em.clearRequests()
    return 'yes'
  }
  const code = await runApply({ paths: ['.'], format: 'text', autoApprove: false }, io)
  expect(code, io.err()).toBe(0)
  expect(io.out()).toContain('No changes. Apply: 0 applied')
  expect(writes(em)).toEqual([])
  expect(JSON.parse(readFileSync(statePath(dir), 'utf8')).key_id).toBe(stateKeyId(KEY.SCANSYNC_STATE_KEY))
})
