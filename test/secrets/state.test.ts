// The secrets state: the key id, re-keying a state from before key ids, and writes merged under a lock.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyState, keyStatus, mergedState, openLedger, readSecretsState, rekeyed, secretContext, secretHmac, stateKeyId, stateKeys, uncheckedNote, writeSecretsState, writeSecretsStateSync } from '../../src/secrets/state.js'
import type { SecretsState } from '../../src/schema/generated.js'
import { temporaryDirectory } from '../helpers/emulator.js'
import { ROOT } from '../helpers/cli.js'
import { breakStaleLock, releaseLock, tryLock } from '../../src/secrets/lock.js'

/** The state holds no secret: the output step has nothing to change. */
const same = (text: string) => text

const keys = stateKeys({ SCANSYNC_STATE_KEY: 'the-Key' }, 'the-token')
const legacy = (): SecretsState => ({ format_version: 1, resources: { 'target/T1': { 'site.basic_auth.password': { hmac: secretHmac('the-token', 'pw-1'), live: 'OBFUSCATED_1' } } } })

describe('the state key', () => {
  it('SCANSYNC_STATE_KEY, else the token; the key id is neither', () => {
    expect(stateKeys({}, 'tok')).toEqual({ key: 'tok', token: 'tok', fromStateKey: false })
    expect(keys).toEqual({ key: 'the-Key', token: 'the-token', fromStateKey: true })
    expect(stateKeyId('the-Key')).toMatch(/^[0-9a-f]{16}$/)
    expect(stateKeyId('the-Key')).not.toBe(stateKeyId('the-token'))
  })

  it('own, legacy (no key id: keyed by the token) or foreign', () => {
    expect(keyStatus(emptyState(), keys)).toBe('own')
    expect(keyStatus(legacy(), keys)).toBe('legacy')
    expect(keyStatus({ ...legacy(), key_id: stateKeyId('the-Key') }, keys)).toBe('own')
    expect(keyStatus({ ...legacy(), key_id: stateKeyId('other') }, keys)).toBe('foreign')
  })

  // A review of the twelfth round's release: a state an apply without SCANSYNC_STATE_KEY wrote
  // (keyed by the token, with its id) took no secret once the key was set, and plans never emptied.
  it('a state written without SCANSYNC_STATE_KEY (keyed by the token, with its id) is read with the token and re-keyed; one with no entries takes the run\'s key', () => {
    const byToken: SecretsState = { ...legacy(), key_id: stateKeyId('the-token') }
    expect(keyStatus(byToken, keys)).toBe('legacy')
    expect(secretContext(byToken, keys).hmac('pw-1')).toBe(secretHmac('the-token', 'pw-1'))
    const done = rekeyed(byToken, keys, () => ['pw-1'])
    expect(done).toEqual({ format_version: 1, key_id: stateKeyId('the-Key'), resources: { 'target/T1': { 'site.basic_auth.password': { hmac: secretHmac('the-Key', 'pw-1'), live: 'OBFUSCATED_1' } } } })

    const emptyByToken = (): SecretsState => ({ format_version: 1, key_id: stateKeyId('the-token'), resources: {} })
    expect(keyStatus(emptyByToken(), keys)).toBe('own')
    const ledger = openLedger(emptyByToken(), keys)
    expect(ledger.context.foreignKey).toBe(false)
    ledger.record('target', 'T1', 'site.basic_auth.password', { hmac: ledger.context.hmac('pw-1'), live: 'OBFUSCATED_1' })
    // Merged over the file as it is (read again: the ledger's copy holds what it recorded).
    const written = mergedState(emptyByToken(), ledger.update(() => ['pw-1']))
    expect(written.key_id).toBe(stateKeyId('the-Key'))
    expect(written.resources['target/T1']!['site.basic_auth.password']!.hmac).toBe(secretHmac('the-Key', 'pw-1'))
    expect(keyStatus(written, keys)).toBe('own')
  })

  it('a legacy state is compared with the token; a foreign one cannot be checked, and the note says what to set', () => {
    expect(secretContext(legacy(), keys).hmac('pw-1')).toBe(secretHmac('the-token', 'pw-1'))
    const foreign = secretContext({ ...legacy(), key_id: stateKeyId('other') }, keys)
    expect(foreign.foreignKey).toBe(true)
    foreign.entry('target', 'T1', 'site.basic_auth.password')
    expect(uncheckedNote(foreign, keys, 's.json')).toBe(
      'Note: 1 secret field the service hides cannot be checked: the state was written with another key (target T1 site.basic_auth.password; s.json): ' +
        'the SCANSYNC_STATE_KEY set here is not the one it was written with. Set SCANSYNC_STATE_KEY to the same value in every job that shares this state. ' +
          'If the key it was written with is gone (a rotated API token), move s.json away: those secrets are then planned as "not yet tracked", and the next apply sends them and records them with this key.',
    )
    const ledger = openLedger({ ...legacy(), key_id: stateKeyId('other') }, keys)
    ledger.record('target', 'T2', 'x', { hmac: 'h' })
    expect(ledger.state.resources['target/T2']).toBeUndefined()
  })

  it('re-keys a legacy state when every entry matches a declared value; otherwise leaves it keyed by the token', () => {
    const done = rekeyed(legacy(), keys, () => ['other', 'pw-1'])
    expect(done.key_id).toBe(stateKeyId('the-Key'))
    expect(done.resources['target/T1']['site.basic_auth.password']).toEqual({ hmac: secretHmac('the-Key', 'pw-1'), live: 'OBFUSCATED_1' })
    expect(rekeyed(legacy(), keys, () => ['pw-2'])).toEqual(legacy())
    // Without a state key the token is the key: only the id is added.
    expect(rekeyed(legacy(), stateKeys({}, 'the-token'), () => [])).toEqual({ ...legacy(), key_id: stateKeyId('the-token') })
  })
})

describe('writing', () => {
  const entry = (n: number) => ({ hmac: secretHmac('k', String(n)), live: `OBFUSCATED_${n}` })
  const update = (n: number) => ({ recorded: new Map([[`target/T${n}`, new Map([['p', entry(n)]])]]), keyId: stateKeyId('k') })

  it('merges the entries a run recorded over the file as it is', () => {
    const current: SecretsState = { format_version: 1, key_id: stateKeyId('k'), resources: { 'target/T0': { p: entry(0) }, 'target/T1': { q: entry(9) } } }
    expect(mergedState(current, update(1)).resources).toEqual({ 'target/T0': { p: entry(0) }, 'target/T1': { q: entry(9), p: entry(1) } })
    expect(mergedState(emptyState(), update(1)).key_id).toBe(stateKeyId('k'))
  })

  it('concurrent writes keep every entry (lock, re-read, merge)', async () => {
    const path = join(temporaryDirectory('scansync-state-'), 'nested', 'state.json')
    await Promise.all(Array.from({ length: 12 }, (_, n) => writeSecretsState(path, update(n), same)))
    writeSecretsStateSync(path, update(12), same)
    const state = await readSecretsState(path)
    expect(Object.keys(state.resources).sort()).toEqual(Array.from({ length: 13 }, (_, n) => `target/T${n}`).sort())
    expect(readFileSync(path, 'utf8')).not.toContain('"k"')
  })

  it('a lock left by a process that died is broken once: many writers that saw it stale all keep their entries', async () => {
    const path = join(temporaryDirectory('scansync-state-'), 'state.json')
    const old = new Date(Date.now() - 60_000)
    writeFileSync(`${path}.lock`, '')
    utimesSync(`${path}.lock`, old, old)
    await Promise.all(Array.from({ length: 12 }, (_, n) => writeSecretsState(path, update(n), same)))
    expect(Object.keys((await readSecretsState(path)).resources).sort()).toEqual(Array.from({ length: 12 }, (_, n) => `target/T${n}`).sort())
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('…and in processes of their own, started at the same moment', { timeout: 60_000 }, async () => {
    const dir = temporaryDirectory('scansync-state-')
    const path = join(dir, 'state.json')
    const old = new Date(Date.now() - 60_000)
    writeFileSync(`${path}.lock`, '')
    utimesSync(`${path}.lock`, old, old)
    const script = [
      `import { writeSecretsState } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'secrets', 'state.js')).href)}`,
      'const [path, n, at] = process.argv.slice(2)',
      'while (Date.now() < Number(at)) {}',
      "await writeSecretsState(path, { recorded: new Map([[`target/T${n}`, new Map([['p', { hmac: n.repeat(64) }]])]]) }, (t) => t)",
    ].join('\n')
    writeFileSync(join(dir, 'writer.mjs'), script)
    const at = Date.now() + 1_500
    await Promise.all(Array.from({ length: 8 }, (_, n) => new Promise((resolve, reject) => execFile(process.execPath, [join(dir, 'writer.mjs'), path, String(n), String(at)], (error) => (error ? reject(error) : resolve(undefined))))))
    expect(Object.keys((await readSecretsState(path)).resources).sort()).toEqual(Array.from({ length: 8 }, (_, n) => `target/T${n}`).sort())
  })

  it('a writer that saw a lock stale never breaks the lock another writer took since', () => {
    const lock = join(temporaryDirectory('scansync-state-'), 'state.json.lock')
    writeFileSync(lock, '')
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    const seenByBoth = statSync(lock)
    // The first breaks it and takes the lock.
    expect(tryLock(lock, 'first')).toBe(false)
    expect(tryLock(lock, 'first')).toBe(true)
    // The second acts on what it saw before: the lock now held is not that one.
    breakStaleLock(lock, seenByBoth)
    expect(readFileSync(lock, 'utf8')).toBe('first')
    expect(tryLock(lock, 'second')).toBe(false)
    // Released only by its holder.
    releaseLock(lock, 'second')
    expect(existsSync(lock)).toBe(true)
    releaseLock(lock, 'first')
    expect(existsSync(lock)).toBe(false)
  })

  it('a writer whose lock was broken while it hung does not remove the lock its breaker holds', async () => {
    const path = join(temporaryDirectory('scansync-state-'), 'state.json')
    const lock = `${path}.lock`
    // Called while the writer holds the lock: meanwhile (as if it had hung for minutes) another
    // process finds the lock stale, breaks it and takes it.
    const hangs = (text: string) => {
      const old = new Date(Date.now() - 60_000)
      utimesSync(lock, old, old)
      expect(tryLock(lock, 'breaker')).toBe(false)
      expect(tryLock(lock, 'breaker')).toBe(true)
      return text
    }
    await writeSecretsState(path, update(1), hangs)
    expect(readFileSync(lock, 'utf8')).toBe('breaker')
  })

  it('a lock held by a process that ends at once (process.exit, as a second Ctrl-C) is released, not left to go stale', async () => {
    const dir = temporaryDirectory('scansync-state-')
    const lock = join(dir, 'state.json.create.lock')
    const script = [
      `import { holdLock } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'secrets', 'lock.js')).href)}`,
      `await holdLock(${JSON.stringify(lock)}, 1_000)`,
      `if (!(await import('node:fs')).existsSync(${JSON.stringify(lock)})) process.exit(3)`,
      'process.exit(130)',
    ].join('\n')
    writeFileSync(join(dir, 'holder.mjs'), script)
    const code = await new Promise((resolve) => execFile(process.execPath, [join(dir, 'holder.mjs')], (error) => resolve(error ? (error as { code?: number }).code : 0)))
    expect(code).toBe(130)
    expect(existsSync(lock)).toBe(false)
  })

  it('a lock left by a process that died long ago is taken over', async () => {
    const path = join(temporaryDirectory('scansync-state-'), 'state.json')
    writeFileSync(`${path}.lock`, '')
    const old = new Date(Date.now() - 60_000)
    utimesSync(`${path}.lock`, old, old)
    await writeSecretsState(path, update(1), same)
    expect(Object.keys((await readSecretsState(path)).resources)).toEqual(['target/T1'])
  })
})
