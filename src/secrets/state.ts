import { validator } from '../schema/validators.js'
import { createHmac } from 'node:crypto'
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { writeWholeFile, writeWholeFileSync } from '../core/whole-file.js'
import type { Env, KindName } from '../core/types.js'
import type { SecretsState } from '../schema/generated.js'
import { ScansyncError } from '../core/errors.js'
import { heldByThisProcess, holdLock, lockToken, releaseLock, tryLock } from './lock.js'

/**
 * The secrets state: for each sensitive field the service hides (OBFUSCATED_…), an HMAC-SHA256 of
 * the last applied value (never the value) and the obfuscated token the service answered after
 * that apply. In sync = both still match. The HMACs are keyed by SCANSYNC_STATE_KEY, or by the API
 * token without it; the state records an identifier of its key (never the key) so that a job
 * holding another key says so instead of calling every secret changed.
 */
export interface SecretEntry {
  hmac: string
  live?: string | null
}

export const emptyState = (): SecretsState => ({ format_version: 1, resources: {} })

export const resourceKey = (kind: KindName, id: string) => `${kind}/${id}`

export const secretHmac = (key: string, value: string): string => createHmac('sha256', key).update(value, 'utf8').digest('hex')

/** The key's identifier: recognisable, but of no use for finding the key or any value. */
export const stateKeyId = (key: string): string => secretHmac(key, 'scansync-state-key-id').slice(0, 16)

export { isObfuscated } from '../schema/sensitivity.js'

/** The keys of a run: the state key (SCANSYNC_STATE_KEY, else the token), and the token, which keyed states written before. */
export interface StateKeys {
  key: string
  token: string
  /** True when the key is SCANSYNC_STATE_KEY rather than the token. */
  fromStateKey: boolean
  /** SCANSYNC_STATE_KEY is set but empty (a CI secret missing there): the token is the key, and notes say the variable is empty. */
  emptyStateKey?: boolean
}

export function stateKeys(env: Env, token: string): StateKeys {
  const stateKey = env.SCANSYNC_STATE_KEY
  if (stateKey) return { key: stateKey, token, fromStateKey: true }
  return { key: token, token, fromStateKey: false, ...(stateKey === '' ? { emptyStateKey: true } : {}) }
}

export async function readSecretsState(path: string): Promise<SecretsState> {
  let text: string | undefined
  try {
    text = stateFileText(path)
  } catch (error) {
    if (error instanceof ScansyncError) throw error
    throw new ScansyncError(`cannot read the secrets state ${path}: ${(error as NodeJS.ErrnoException).code}`)
  }
  return text === undefined ? emptyState() : parseState(text, path)
}

/**
 * The state file's text (undefined when there is none). Only a regular file is read, as the
 * configuration's files are (read-file.ts): a FIFO in its place (nobody writing) made every plan,
 * drift, apply and audit wait for a writer for ever, and a link to a device (/dev/zero) was read
 * until memory ran out. O_NONBLOCK: such a FIFO opens without waiting, and is then refused.
 */
function stateFileText(path: string): string | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const info = fstatSync(fd)
    // Named as what it is: `--state .scansync` (the folder, not the file in it) was told to "move it
    // away", which would have lost every record of the state.json inside.
    if (info.isDirectory()) {
      const inside = join(path, 'state.json')
      const file = existsSync(inside) ? `the state file in it: --state ${inside}` : 'the file, by default .scansync/state.json beside the configuration'
      throw new ScansyncError(`the secrets state ${path} is a directory, not the state file: --state names ${file}`)
    }
    if (!info.isFile()) {
      throw new ScansyncError(`the secrets state ${path} is not a regular file (a directory, a device, a pipe or a socket); move it away to start over (secrets are then planned as "not yet tracked")`)
    }
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

function parseState(text: string, path: string): SecretsState {
  // A byte order mark, as Windows editors write one when a state is mended by hand (the configuration's reader skips it too).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  try {
    const data = JSON.parse(text) as SecretsState
    // Every entry too: a record that is not one (an `hmac` of 5, a text for an entry) was taken,
    // and drift reported a difference that was not there until the next apply wrote over it.
    if (!validator('state')(data)) throw new Error('unexpected shape')
    return data
  } catch (error) {
    // A merge of two branches that each recorded secrets: "move it away" would lose both sides.
    const conflict = text.split('\n').findIndex((line) => /^(<{7}|={7}|>{7})(\s|$)/.test(line))
    if (conflict >= 0)
      throw new ScansyncError(
        `the secrets state ${path} holds a merge conflict (a conflict marker on line ${conflict + 1}); keep one side's file whole: ` +
          'secrets only the other side recorded are then planned as "not yet tracked", and the next apply sends them and records them',
      )
    // A state joined by hand (a comma left after the last entry): where, so that it can be mended
    // rather than moved away. Only the place: the parser's words may quote the text.
    const at = error instanceof SyntaxError ? /at position (\d+)/.exec(error.message) : null
    if (at) {
      const before = text.slice(0, Number(at[1])).split('\n')
      throw new ScansyncError(
        `the secrets state ${path} is not valid JSON (line ${before.length}, column ${before.at(-1)!.length + 1}); mend it there, or move it away to start over (secrets are then planned as "not yet tracked")`,
      )
    }
    throw new ScansyncError(`the secrets state ${path} is not a scansync state file; move it away to start over (secrets are then planned as "not yet tracked")`)
  }
}

/** The file's text: resources and their fields sorted by their characters (not the locale's collation), so that the same state gives the same bytes on every machine. */
function stateText(state: SecretsState): string {
  const sorted: SecretsState = {
    format_version: 1,
    ...(state.key_id ? { key_id: state.key_id } : {}),
    resources: Object.fromEntries(
      Object.keys(state.resources).sort().map((key) => [key, Object.fromEntries(Object.entries(state.resources[key]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))]),
    ),
  }
  return JSON.stringify(sorted, null, 2) + '\n'
}

/**
 * How a run reads a state: with its own key; with the token (a state from before key ids, or one
 * written without SCANSYNC_STATE_KEY, whose key was the token: re-keyed when the run has a state
 * key); or not at all (another key).
 */
export type KeyStatus = 'own' | 'legacy' | 'foreign'

export function keyStatus(state: SecretsState, keys: StateKeys): KeyStatus {
  // A state with no entries has nothing to protect: it takes the run's key.
  if (Object.keys(state.resources).length === 0) return 'own'
  if (state.key_id === undefined) return 'legacy'
  if (state.key_id === stateKeyId(keys.key)) return 'own'
  return state.key_id === stateKeyId(keys.token) ? 'legacy' : 'foreign'
}

export interface SecretContext {
  hmac(value: string): string
  entry(kind: KindName, id: string, path: string): SecretEntry | undefined
  /**
   * True when the state was written with another key: a recorded secret then cannot be checked
   * (it is neither a change nor drift) and nothing may be recorded.
   */
  readonly foreignKey?: boolean
  /** The recorded secrets that could not be checked (`kind/id path`), when `foreignKey`. */
  readonly unchecked?: ReadonlySet<string>
  /**
   * The secrets the state has no record of (`kind/id path`), when `foreignKey`: an apply sends
   * them but cannot record them, so every plan after shows them "not yet tracked" again.
   */
  readonly unrecorded?: ReadonlySet<string>
  /**
   * The resources (`kind/id`) whose values applied from variables cannot be recognised, when
   * `foreignKey`: every live value of theirs `known` is asked about is taken for one.
   */
  readonly unrecognised?: ReadonlySet<string>
  /**
   * The resources (`kind/id`) whose state records none of the values they take from variables
   * (last applied by an older scansync, or not yet by an apply of this version), a live value of
   * which, at a place the YAML takes from a variable, `known` could not recognise: a rotated variable's old value may then be shown in
   * clear, and a note says why.
   */
  readonly unrecordedValues?: ReadonlySet<string>
  /** Told of a secret the state has no record of ("not yet tracked"). */
  untracked?(kind: KindName, id: string, path: string): void
  /** The paths the state records for a resource (to find one whose list keys another key hashed). */
  paths?(kind: KindName, id: string): readonly string[]
  /**
   * Whether a text holds a secret of the run (the redaction's, a weak one included): a change
   * whose value holds one is shown as (sensitive), as the output step cannot hide a weak one.
   */
  readonly holds?: (text: string) => boolean
  /**
   * Whether `value` is one the state records as applied to the resource (a hidden secret, or a
   * value from a variable: VARIABLE_PATH), by its HMAC: a live value the YAML no longer declares
   * (a rotated variable's old value) is then shown as (sensitive), never in clear.
   */
  known?(kind: KindName, id: string, value: string, fromVariable?: boolean): boolean
}

/**
 * Where the state records a value applied from a variable: by its keyed hash, whatever place it
 * held (it is recognised wherever the live resource still holds it, once the YAML no longer does).
 */
export const VARIABLE_PREFIX = 'variables'
export const variablePath = (hmac: string): string => `${VARIABLE_PREFIX}[#${hmac.slice(0, HIDDEN_KEY_LENGTH)}]`

/** How plan, drift and apply compare secrets with `state`. A plain string is a token (tests, and states from before key ids). */
export function secretContext(state: SecretsState, keys: StateKeys | string, holds?: (text: string) => boolean): SecretContext {
  const k = typeof keys === 'string' ? { key: keys, token: keys, fromStateKey: false } : keys
  const status = keyStatus(state, k)
  const hmacKey = status === 'legacy' ? k.token : k.key
  const unchecked = new Set<string>()
  const unrecorded = new Set<string>()
  const unrecognised = new Set<string>()
  const unrecordedValues = new Set<string>()
  return {
    hmac: (value) => secretHmac(hmacKey, value),
    known: (kind, id, value, fromVariable) => {
      // An empty value is no secret (the redaction ignores it too): every empty text would be hidden.
      if (value === '') return false
      // Read as it is now: an apply records into the same state as it goes.
      const fields = state.resources[resourceKey(kind, id)] ?? {}
      // Recorded with another key, a rotated variable's old value cannot be told from any other:
      // each live value is shown as (sensitive) rather than perhaps in clear (a note says why).
      if (status === 'foreign') {
        if (!Object.keys(fields).some((path) => path.startsWith(`${VARIABLE_PREFIX}[`))) return false
        unrecognised.add(resourceKey(kind, id))
        return true
      }
      const entries = Object.values(fields)
      // Most resources have no record: no HMAC to compute for each value that changed.
      if (entries.length > 0) {
        const hmac = secretHmac(hmacKey, value)
        if (entries.some((entry) => entry.hmac === hmac)) return true
      }
      // No record of the values the YAML takes from variables (an older scansync applied them,
      // recording none): a rotated variable's old value cannot be told from any other.
      if (fromVariable && !Object.keys(fields).some((path) => path.startsWith(`${VARIABLE_PREFIX}[`))) unrecordedValues.add(resourceKey(kind, id))
      return false
    },
    entry: (kind, id, path) => {
      const found = state.resources[resourceKey(kind, id)]?.[path]
      if (found && status === 'foreign') unchecked.add(`${kind}/${id} ${path}`)
      return found
    },
    foreignKey: status === 'foreign',
    unchecked,
    unrecorded,
    unrecognised,
    unrecordedValues,
    untracked: (kind, id, path) => {
      if (status === 'foreign') unrecorded.add(`${kind}/${id} ${path}`)
    },
    paths: (kind, id) => Object.keys(state.resources[resourceKey(kind, id)] ?? {}),
    ...(holds ? { holds } : {}),
  }
}

/** The note for secrets that cannot be checked, or not recorded, with this run's key (undefined when there are none). */
export function uncheckedNote(secrets: SecretContext, keys: Pick<StateKeys, 'fromStateKey' | 'emptyStateKey'> | undefined, statePath: string): string | undefined {
  const notes = [keyNote(secrets, keys, statePath), unrecordedValuesNote(secrets, statePath)].filter((note) => note !== undefined)
  return notes.length === 0 ? undefined : notes.join('\n')
}

/** The note for resources whose values from variables the state has no record of (SecretContext.unrecordedValues). */
function unrecordedValuesNote(secrets: SecretContext, statePath: string): string | undefined {
  const list = [...(secrets.unrecordedValues ?? [])].sort()
  if (list.length === 0) return undefined
  const first = list.slice(0, 5).map((u) => u.replace('/', ' ')).join(', ')
  const more = list.length > 5 ? ` and ${list.length - 5} more` : ''
  return (
    `Note: ${statePath} has no record of the values ${list.length === 1 ? 'this resource' : 'these resources'} took from variables (${first}${more}): ` +
    'they were last applied by an older scansync, or not yet by an apply of this version. A live value a variable held before (rotated since) cannot be recognised, and is shown in clear if it differs from the YAML; ' +
    'the next apply that changes them records their values from variables.'
  )
}

function keyNote(secrets: SecretContext, keys: Pick<StateKeys, 'fromStateKey' | 'emptyStateKey'> | undefined, statePath: string): string | undefined {
  const unchecked = [...(secrets.unchecked ?? [])].sort()
  const unrecorded = [...(secrets.unrecorded ?? [])].sort()
  const unrecognised = [...(secrets.unrecognised ?? [])].sort()
  const list = [...unchecked, ...unrecorded, ...unrecognised]
  if (list.length === 0) return undefined
  const first = list.slice(0, 5).map((u) => u.replace('/', ' ')).join(', ')
  const more = list.length > 5 ? ` and ${list.length - 5} more` : ''
  const what = keys?.fromStateKey
    ? 'the SCANSYNC_STATE_KEY set here is not the one'
    : `SCANSYNC_STATE_KEY is ${keys?.emptyStateKey ? 'empty' : 'not set'} here, and the API token is not the key`
  const fields = (count: number) => `${count} secret ${count === 1 ? 'field' : 'fields'} the service hides`
  // A secret the state has no record of is sent by an apply, but recording it with this key would
  // mix keys in one file: without a word, every plan after the apply showed it again.
  const notRecorded = (count: number) =>
    `${count === 1 ? 'is' : 'are'} not recorded by an apply (${count === 1 ? 'it is' : 'they are'} sent, and planned as "not yet tracked" again after every apply)`
  const secretsProblem =
    unchecked.length + unrecorded.length === 0
      ? undefined
      : unchecked.length === 0
        ? `${fields(unrecorded.length)} ${notRecorded(unrecorded.length)}`
        : unrecorded.length === 0
          ? `${fields(unchecked.length)} cannot be checked`
          : `${fields(unchecked.length)} cannot be checked, and ${unrecorded.length} ${notRecorded(unrecorded.length)}`
  // A rotated variable's old value cannot be recognised: the live values of those resources are shown as (sensitive).
  const valuesProblem =
    unrecognised.length === 0
      ? undefined
      : `the values ${unrecognised.length === 1 ? '1 resource' : `${unrecognised.length} resources`} took from variables cannot be recognised (${unrecognised.length === 1 ? 'its' : 'their'} live values are shown as (sensitive))`
  const problem = [secretsProblem, valuesProblem].filter((part) => part !== undefined).join(', and ')
  return (
    `Note: ${problem}: the state was written with another key ` +
    `(${first}${more}; ${statePath}): ${what} it was written with. ` +
    'Set SCANSYNC_STATE_KEY to the same value in every job that shares this state. ' +
    // Setting it does not re-key a state whose key is gone (the token it was written with, rotated since).
    `If the key it was written with is gone (a rotated API token), move ${statePath} away: those secrets are then planned as "not yet tracked", and the next apply sends them and records them with this key.`
  )
}

export function recordSecret(state: SecretsState, kind: KindName, id: string, path: string, entry: SecretEntry): void {
  const key = resourceKey(kind, id)
  state.resources[key] ??= {}
  state.resources[key][path] = entry
}

/**
 * A state read with the token (written before key ids) re-keyed with the run's key: each entry
 * whose HMAC is that of a declared value of its resource is recomputed (a value from a variable no
 * longer declared is left out). Only when every other entry can be, the state gets its key id;
 * otherwise it stays as it was (still keyed by the token), so that no entry is ever keyed
 * differently from the others. `forgettable`: the resources (a run over the whole configuration
 * knows them) whose entries that cannot be re-keyed are left out too: a target since removed from
 * the YAML, a header's name since rotated, would otherwise keep the state keyed by the token for
 * ever (a secret of theirs declared again is then "not yet tracked", and sent once more).
 */
export function rekeyed(state: SecretsState, keys: StateKeys, declaredValues: (resourceKey: string) => readonly string[], forgettable?: (resourceKey: string) => boolean): SecretsState {
  if (keyStatus(state, keys) !== 'legacy' && (state.key_id !== undefined || Object.keys(state.resources).length > 0)) return state
  const id = stateKeyId(keys.key)
  if (keys.key === keys.token) return { ...state, key_id: id }
  const resources: SecretsState['resources'] = {}
  for (const [resource, fields] of Object.entries(state.resources)) {
    const candidates = declaredValues(resource)
    resources[resource] = {}
    for (const [path, entry] of Object.entries(fields)) {
      const value = candidates.find((candidate) => secretHmac(keys.token, candidate) === entry.hmac)
      // A value once applied from a variable that the YAML no longer declares (kept while the
      // service holds it) cannot be found: its record is left out, rather than the whole state
      // staying keyed by the token (every hidden secret unchecked once the token is rotated).
      if (value === undefined && path.startsWith(`${VARIABLE_PREFIX}[`)) continue
      // A key from a variable in the path is a hash with the old key too (statePath): found among the same values.
      const rekeyedPath = path.replace(HIDDEN_KEY, (whole, hash: string) => {
        const name = candidates.find((candidate) => secretHmac(keys.token, candidate).slice(0, HIDDEN_KEY_LENGTH) === hash)
        return name === undefined ? '\0' : `[#${secretHmac(keys.key, name).slice(0, HIDDEN_KEY_LENGTH)}]`
      })
      if (value === undefined || rekeyedPath.includes('\0')) {
        if (forgettable?.(resource)) continue
        return state
      }
      resources[resource][rekeyedPath] = { ...entry, hmac: secretHmac(keys.key, value) }
    }
    if (Object.keys(resources[resource]).length === 0) delete resources[resource]
  }
  return { format_version: 1, key_id: id, resources }
}

/** A key from a variable in a state path, as statePath (src/plan/path.ts) writes it: `[#` and 16 digits of its keyed hash. */
const HIDDEN_KEY = /\[#([0-9a-f]{16})\]/g
export const HIDDEN_KEY_LENGTH = 16

/** What a run changed in a state: the entries it recorded, merged over the file as it is now. */
export interface StateUpdate {
  /** Entries this run recorded: `kind/id` → path → entry. */
  recorded: ReadonlyMap<string, ReadonlyMap<string, SecretEntry>>
  /** Records this run's entries replace (their key's other forms): `kind/id` → paths. */
  replaced?: ReadonlyMap<string, ReadonlySet<string>>
  /** The key id of the recorded entries' HMACs; undefined when they are keyed by the token of a state from before key ids. */
  keyId?: string
  /** Applied to the merged state before it is written (re-keying). */
  finish?(state: SecretsState): SecretsState
}

export function mergedState(current: SecretsState, update: StateUpdate): SecretsState {
  // Another apply sharing the file (another account's, say) wrote it meanwhile with another key:
  // both read it with no entries and took it for their own. Merged, the file would mix keys under
  // one key id; refused, the outcome is that of the two applies run one after the other.
  if (update.keyId !== undefined && Object.keys(current.resources).length > 0 && current.key_id !== update.keyId) {
    throw new ScansyncError(
      'another apply wrote it meanwhile with another key (another SCANSYNC_STATE_KEY, or another API token without it), so this apply\'s records are not merged into it; ' +
        'set SCANSYNC_STATE_KEY to the same value in every job that shares this state, or give each account its own --state',
    )
  }
  const resources: SecretsState['resources'] = { ...current.resources }
  for (const [resource, paths] of update.replaced ?? []) {
    if (!resources[resource]) continue
    resources[resource] = { ...resources[resource] }
    for (const path of paths) if (!update.recorded.get(resource)?.has(path)) delete resources[resource][path]
  }
  for (const [resource, fields] of update.recorded) {
    resources[resource] = { ...resources[resource] }
    for (const [path, entry] of fields) resources[resource][path] = entry
  }
  // A file with no entries yet takes the key of the entries merged into it.
  const keyId = Object.keys(current.resources).length === 0 ? (update.keyId ?? current.key_id) : current.key_id
  const merged: SecretsState = { format_version: 1, ...(keyId ? { key_id: keyId } : {}), resources }
  return update.finish ? update.finish(merged) : merged
}

/**
 * Whether a run has anything to write: entries it recorded or replaced, or a state from before key
 * ids to re-key. A run with nothing (its changes hold no secret the service hides, or none landed)
 * leaves the file as it is, so a folder it cannot write (a read-only checkout) does not turn an
 * apply that sent everything into a failure claiming secrets will be planned again.
 */
export function hasStateToWrite(status: KeyStatus, update: StateUpdate): boolean {
  return status === 'legacy' || update.recorded.size > 0 || (update.replaced?.size ?? 0) > 0
}

/**
 * Whether all a run would write is the records of values from variables (VARIABLE_PATH): a state
 * it cannot write then loses no hidden secret's record, only the means to recognise a rotated
 * variable's old value.
 */
export function recordsOnlyVariables(status: KeyStatus, update: StateUpdate): boolean {
  const isVariable = (path: string) => path.startsWith(`${VARIABLE_PREFIX}[`)
  return (
    status !== 'legacy' &&
    [...update.recorded.values()].every((fields) => [...fields.keys()].every(isVariable)) &&
    [...(update.replaced?.values() ?? [])].every((paths) => [...paths].every(isVariable))
  )
}

const LOCK_WAIT_MS = 10_000

const lockPath = (path: string) => `${path}.lock`

async function withLock<T>(path: string, run: () => Promise<T>, onWait?: (lock: string) => void): Promise<T> {
  await mkdir(dirname(path), { recursive: true })
  const lock = lockPath(path)
  let told = false
  const release = await holdLock(lock, LOCK_WAIT_MS, () => {
    if (told || onWait === undefined) return
    told = true
    onWait(lock)
  })
  try {
    return await run()
  } finally {
    release()
  }
}

const heldByAnother = (lock: string) => Object.assign(new Error(`${lock} is held by another scansync`), { code: 'ELOCKED' })

/**
 * Under a lock, the file is read again and this run's entries merged into it, then written whole
 * to a temporary file and renamed over the old one: two applies sharing a state keep every entry,
 * and there is never half a file.
 */
export async function writeSecretsState(path: string, update: StateUpdate, redact: (text: string) => string, onWait?: (lock: string) => void): Promise<void> {
  await withLock(
    path,
    async () => {
      const current = await readSecretsState(path)
      await writeWholeFile(path, redact(stateText(mergedState(current, update))), 0o600)
    },
    onWait,
  )
}

/** `redact` is the run's output step (Redaction.file), which every written file passes through. */
/** The same, at once: for the last moment of a process (a second Ctrl-C), where nothing can be awaited. */
export function writeSecretsStateSync(path: string, update: StateUpdate, redact: (text: string) => string): void {
  mkdirSync(dirname(path), { recursive: true })
  const lock = lockPath(path)
  const token = lockToken()
  const started = Date.now()
  // Held by this process's own awaited write (what an interrupt started to record what had landed):
  // written under its hold, as that write cannot go on meanwhile, and the process ends right after.
  let own = false
  while (!(own = heldByThisProcess(lock)) && !tryLock(lock, token)) {
    if (Date.now() - started > 2_000) throw heldByAnother(lock)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
  }
  try {
    const text = stateFileText(path)
    const current = text === undefined ? emptyState() : parseState(text, path)
    writeWholeFileSync(path, redact(stateText(mergedState(current, update))), 0o600)
  } finally {
    if (!own) releaseLock(lock, token)
  }
}

/**
 * The secrets of one run: how they compare (`context`), and what the run records, kept apart so
 * that writing merges only this run's entries into the file as it is by then.
 */
export interface SecretsLedger {
  state: SecretsState
  keys: StateKeys
  /** How the state read at the start compares with the run's key. */
  status: KeyStatus
  context: SecretContext
  /**
   * Records a secret as applied (nothing, when the state was written with another key), in place
   * of any record of it under `replaces` (the other forms of its key).
   */
  record(kind: KindName, id: string, path: string, entry: SecretEntry, replaces?: readonly string[]): void
  /**
   * Records the values a resource was just applied with from variables (VARIABLE_PATH, by their
   * HMACs), in place of those recorded before that the resource no longer holds (`held`: the texts
   * of its answer, asked for only when some were recorded before): a value rotated since is
   * recognised as a secret while the service holds it.
   */
  recordVariables(kind: KindName, id: string, values: readonly string[], held: () => readonly string[]): void
  /**
   * What to merge into the file; `declaredValues` re-keys a state from before key ids. `whole`: the
   * run declares every resource of the configuration (no --kind or --id), so a record of a resource
   * it has not applied that cannot be re-keyed is stale, and left out (rekeyed's `forgettable`).
   */
  update(declaredValues?: (resourceKey: string) => readonly string[], whole?: boolean): StateUpdate
  /**
   * Takes the file's records again (`current`, read after a confirmation or a wait), for the
   * resources this run has recorded nothing for: another apply sharing the state may have sent and
   * recorded a secret meanwhile. Only when `current` is keyed as the state read first.
   */
  refresh(current: SecretsState): void
}

export function openLedger(state: SecretsState, keys: StateKeys, holds?: (text: string) => boolean): SecretsLedger {
  const context = secretContext(state, keys, holds)
  // Decided once: the entries this run records make a fresh state look like one from before key ids.
  const status = keyStatus(state, keys)
  const keyId = status === 'own' ? stateKeyId(keys.key) : undefined
  const recorded = new Map<string, Map<string, SecretEntry>>()
  const replaced = new Map<string, Set<string>>()
  return {
    state,
    keys,
    status,
    context,
    record(kind, id, path, entry, replaces = []) {
      if (context.foreignKey) return
      recordSecret(state, kind, id, path, entry)
      const key = resourceKey(kind, id)
      if (!recorded.has(key)) recorded.set(key, new Map())
      recorded.get(key)!.set(path, entry)
      for (const other of replaces) {
        if (other === path) continue
        delete state.resources[key]![other]
        recorded.get(key)!.delete(other)
        if (!replaced.has(key)) replaced.set(key, new Set())
        replaced.get(key)!.add(other)
      }
    },
    recordVariables(kind, id, values, held) {
      if (context.foreignKey) return
      const key = resourceKey(kind, id)
      const hmacs = new Map(values.map((value) => [variablePath(context.hmac(value)), context.hmac(value)]))
      const earlier = Object.entries(state.resources[key] ?? {}).filter(([path]) => path.startsWith(`${VARIABLE_PREFIX}[`) && !hmacs.has(path))
      // A value the resource still holds (a field the YAML no longer declares keeps its value) stays recorded.
      const stillHeld = earlier.length > 0 ? new Set(held().map((text) => context.hmac(text))) : new Set<string>()
      const before = earlier.filter(([, entry]) => !stillHeld.has(entry.hmac)).map(([path]) => path)
      // A value recorded already is not recorded again: an apply with nothing new leaves the file as it is.
      const fresh = [...hmacs].filter(([path, hmac]) => state.resources[key]?.[path]?.hmac !== hmac)
      if (fresh.length === 0) {
        if (before.length === 0) return
        for (const path of before) delete state.resources[key]![path]
        for (const path of before) recorded.get(key)?.delete(path)
        if (!replaced.has(key)) replaced.set(key, new Set())
        for (const path of before) replaced.get(key)!.add(path)
        return
      }
      for (const [path, hmac] of fresh) this.record(kind, id, path, { hmac }, before)
    },
    refresh(current) {
      // Keyed otherwise (re-keyed by the other apply meanwhile): its HMACs mean nothing with this run's key.
      // A state from before key ids that the other apply gave the token's key id is still keyed by the token.
      const sameKey = status === 'own' ? keyStatus(current, keys) === 'own' : status === 'legacy' && (current.key_id === undefined || current.key_id === stateKeyId(keys.token))
      if (!sameKey) return
      for (const key of Object.keys(state.resources)) if (!recorded.has(key) && !replaced.has(key)) delete state.resources[key]
      for (const [key, fields] of Object.entries(current.resources)) if (!recorded.has(key) && !replaced.has(key)) state.resources[key] = fields
      if (current.key_id !== undefined) state.key_id = current.key_id
    },
    update: (declaredValues, whole) => ({
      recorded,
      replaced,
      ...(keyId ? { keyId } : {}),
      // A resource this run created (recorded, its id declared nowhere yet) is never forgotten.
      ...(declaredValues && !context.foreignKey
        ? { finish: (merged: SecretsState) => rekeyed(merged, keys, declaredValues, whole ? (resource) => !recorded.has(resource) || declaredValues(resource).length > 0 : undefined) }
        : {}),
    }),
  }
}
