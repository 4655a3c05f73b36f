// A second Ctrl-C during apply quits at once and records, synchronously, the secrets that landed.
// With nothing to record (no secret sent yet), it wrote the state anyway, as the whole apply no
// longer does: with the state's folder not writable, it said "The secrets state could not be
// written" though there was nothing to keep, and otherwise it wrote a file nobody needed.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { quitAtOnce } from '../../src/apply/send.js'
import { Tally } from '../../src/apply/report.js'
import { emptyState, openLedger } from '../../src/secrets/state.js'
import type { SecretEntry } from '../../src/secrets/state.js'

const dir = mkdtempSync(join(tmpdir(), 'scansync-quit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const keys = { key: 'k', token: 'k', fromStateKey: false }

it('with nothing to record, the state is not written (and its folder not created)', () => {
  const ledger = openLedger(emptyState(), keys)
  const statePath = join(dir, 'fresh', '.scansync', 'state.json')
  const words = quitAtOnce({ statePath, stateUpdate: () => ledger.update(), known: new Tally(2), redactFile: (t) => t, ledger })
  expect(words).toBe('\nQuit at once: 0 applied, 0 failed, 0 in flight (they may or may not have been applied), 2 not sent; run scansync plan to see what is left.')
  expect(existsSync(join(dir, 'fresh'))).toBe(false)
})

it('with nothing to record and a state folder that cannot be made, no "could not be written"', () => {
  const ledger = openLedger(emptyState(), keys)
  // A file where the folder would be: mkdir fails with ENOTDIR, as a read-only folder would with EACCES.
  writeFileSync(join(dir, 'blocked'), '')
  const words = quitAtOnce({ statePath: join(dir, 'blocked', 'state.json'), stateUpdate: () => ledger.update(), known: new Tally(1), redactFile: (t) => t, ledger })
  expect(words).not.toMatch(/could not be written/)
})

it('a secret that landed is still recorded', () => {
  const ledger = openLedger(emptyState(), keys)
  ledger.record('target', 'T1', 'site.basic_auth.password', { hmac: 'a'.repeat(64) } as unknown as SecretEntry)
  const statePath = join(dir, 'recorded', 'state.json')
  quitAtOnce({ statePath, stateUpdate: () => ledger.update(), known: new Tally(1), redactFile: (t) => t, ledger })
  expect(existsSync(statePath)).toBe(true)
})
