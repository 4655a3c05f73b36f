// Review round 26 (one repository, several accounts): staging and production applied at once with
// one `--state` file, each with its own token (or SCANSYNC_STATE_KEY). Both read the state while it
// had no entries, so each took it for its own; the second to write merged its HMACs, keyed by its
// key, into a file the first had just marked with the first's key id. The file then mixed keys
// without a word: the second account's secrets were reported "cannot be checked" at every later
// run, or "changed in YAML" when a record was overwritten, and never recorded again. Run one after
// the other, the second apply records nothing and says why; at once, the second write is now refused
// the same way (its records are not merged), and the apply says so, naming SCANSYNC_STATE_KEY.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { emptyState, keyStatus, openLedger, readSecretsState, stateKeyId, stateKeys, writeSecretsState } from '../../src/secrets/state.js'
import { writeFailure } from '../../src/core/whole-file.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const entry = (live: string) => ({ hmac: 'a'.repeat(64), live })

it('an apply keyed otherwise does not merge its records into a state another apply wrote meanwhile with its own key', async () => {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  const staging = openLedger(emptyState(), stateKeys({}, 'staging-token'))
  const production = openLedger(emptyState(), stateKeys({}, 'production-token'))
  staging.record('target', 'StagingT1', 'site.basic_auth.password', entry('OBFUSCATED_s'))
  production.record('target', 'ProdT1', 'site.basic_auth.password', entry('OBFUSCATED_p'))

  await writeSecretsState(path, staging.update(), (text) => text)
  const refused = await writeSecretsState(path, production.update(), (text) => text).then(
    () => undefined,
    (error: unknown) => writeFailure(error),
  )

  const state = await readSecretsState(path)
  expect(state.key_id).toBe(stateKeyId('staging-token'))
  expect(Object.keys(state.resources)).toEqual(['target/StagingT1'])
  expect(refused).toMatch(/another key/)
  expect(refused).toMatch(/SCANSYNC_STATE_KEY/)
  // As if run one after the other: production reads the state as another key's, and says so.
  expect(keyStatus(state, stateKeys({}, 'production-token'))).toBe('foreign')
})

it('the same key writing at once still merges both records', async () => {
  const path = join(temporaryDirectory('scansync-state-'), 'state.json')
  const keys = stateKeys({ SCANSYNC_STATE_KEY: 'one-key-for-every-job' }, 'staging-token')
  const first = openLedger(emptyState(), keys)
  const second = openLedger(emptyState(), stateKeys({ SCANSYNC_STATE_KEY: 'one-key-for-every-job' }, 'production-token'))
  first.record('target', 'StagingT1', 'site.basic_auth.password', entry('OBFUSCATED_s'))
  second.record('target', 'ProdT1', 'site.basic_auth.password', entry('OBFUSCATED_p'))
  await writeSecretsState(path, first.update(), (text) => text)
  await writeSecretsState(path, second.update(), (text) => text)
  const state = await readSecretsState(path)
  expect(state.key_id).toBe(stateKeyId('one-key-for-every-job'))
  expect(Object.keys(state.resources).sort()).toEqual(['target/ProdT1', 'target/StagingT1'])
})
