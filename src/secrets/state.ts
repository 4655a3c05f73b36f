import { createHmac } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { KindName } from '../core/types.js'
import type { SecretsState } from '../schema/generated.js'
import { ScansyncError } from '../core/errors.js'

/**
 * The secrets state: for each sensitive field the service hides (OBFUSCATED_…), an HMAC-SHA256 of
 * the last applied value keyed by the API token (never the value) and the obfuscated token the
 * service answered after that apply. In sync = both still match.
 */
export interface SecretEntry {
  hmac: string
  live?: string | null
}

export const emptyState = (): SecretsState => ({ format_version: 1, resources: {} })

export const resourceKey = (kind: KindName, id: string) => `${kind}/${id}`

export const secretHmac = (token: string, value: string): string => createHmac('sha256', token).update(value, 'utf8').digest('hex')

export const isObfuscated = (value: unknown): value is string => typeof value === 'string' && value.startsWith('OBFUSCATED_')

export async function readSecretsState(path: string): Promise<SecretsState> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState()
    throw new ScansyncError(`cannot read the secrets state ${path}: ${(error as NodeJS.ErrnoException).code}`)
  }
  try {
    const data = JSON.parse(text) as SecretsState
    if (data?.format_version !== 1 || typeof data.resources !== 'object' || data.resources === null) throw new Error('unexpected shape')
    return data
  } catch {
    throw new ScansyncError(`the secrets state ${path} is not a scansync state file; move it away to start over (secrets are then planned as "not yet tracked")`)
  }
}

/** The file's text: resources and their fields sorted, so that the same state gives the same bytes. */
function stateText(state: SecretsState): string {
  const sorted: SecretsState = {
    format_version: 1,
    resources: Object.fromEntries(
      Object.keys(state.resources).sort().map((key) => [key, Object.fromEntries(Object.entries(state.resources[key]).sort(([a], [b]) => a.localeCompare(b)))]),
    ),
  }
  return JSON.stringify(sorted, null, 2) + '\n'
}

/** Written whole to a temporary file, then renamed over the old one: never half a file. */
/** `redact`: the run's output step (Redaction.file), which every file passes through. */
export async function writeSecretsState(path: string, state: SecretsState, redact: (text: string) => string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  try {
    await writeFile(temporary, redact(stateText(state)), { mode: 0o600 })
    await rename(temporary, path)
  } catch (error) {
    // The write's own error is the one to report, not a failure to clean up after it.
    await rm(temporary, { force: true }).catch(() => undefined)
    throw error
  }
}

/** The same, at once: for the last moment of a process (a second Ctrl-C), where nothing can be awaited. */
export function writeSecretsStateSync(path: string, state: SecretsState, redact: (text: string) => string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, redact(stateText(state)), { mode: 0o600 })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

export interface SecretContext {
  hmac(value: string): string
  entry(kind: KindName, id: string, path: string): SecretEntry | undefined
}

export function secretContext(state: SecretsState, token: string): SecretContext {
  return {
    hmac: (value) => secretHmac(token, value),
    entry: (kind, id, path) => state.resources[resourceKey(kind, id)]?.[path],
  }
}

export function recordSecret(state: SecretsState, kind: KindName, id: string, path: string, entry: SecretEntry): void {
  const key = resourceKey(kind, id)
  state.resources[key] ??= {}
  state.resources[key][path] = entry
}
