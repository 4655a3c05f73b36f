import type { DesiredResource, JsonObject } from '../core/types.js'
import type { PlannedRequest, ResourceKind } from '../resources/kind.js'
import type { ChangeResult, ResourceChange } from '../plan/model.js'
import type { HiddenSecret } from '../plan/diff.js'
import type { SecretsLedger } from '../secrets/state.js'
import { ServiceError, type FieldProblem } from '../client/errors.js'
import { errorCode, OUT_OF_DESCRIPTORS, proxyRefusal } from '../client/retry-policy.js'
import { Redaction, SENSITIVE, writtenForms } from '../core/redaction.js'
import { urlPasswords } from '../schema/sensitivity.js'
import { liveSecrets } from '../secrets/redact.js'
import { maskedKeys } from '../plan/staleness.js'

/**
 * One change as the executor and the creation path see it, and how a failed one reads: shared by
 * executor.ts and create.ts, which otherwise would import each other.
 */

/** What applying needs of the HTTP client. */
export interface Sender {
  request<T = unknown>(method: 'PATCH' | 'PUT' | 'POST', path: string, options: { body: unknown; resource: string; stop?: AbortSignal }): Promise<T>
}

/** One change to send: what the plan shows, and the request that makes it so. */
export interface PendingChange {
  change: ResourceChange
  kind: ResourceKind
  desired: DesiredResource
  /** A creation's is `POST` to the kind's list (see create.ts). */
  request: PlannedRequest | { method: 'POST'; path: string; body: JsonObject }
  /** The secrets the service hid when the request was built (their obfuscated tokens before it). */
  hiddenBefore: readonly HiddenSecret[]
  /** The live resource (its kind's projection) the request was built from: what the service holds in clear. */
  live?: JsonObject
  /**
   * The paths of the plan's fields as the read the request was built from names them (asPlanned):
   * a saved plan masks a list key holding a secret of the run (`site.headers[(sensitive)]`), which
   * the answer's path never equals. The change's own paths when not given.
   */
  planned?: readonly string[]
}

export interface ExecuteOptions {
  parallelism: number
  /** Secrets the service now hides are recorded in it after each success. */
  secrets: SecretsLedger
  /** Stop starting new requests once aborted (Ctrl-C), retries included. */
  signal?: AbortSignal
  /** How long to wait for requests in flight after an abort. */
  drainMs?: number
  /** A change's request is about to be sent. */
  onStart?(change: ResourceChange): void
  onResult?(result: ChangeResult): void
}

/** Connection failures that happen before a request is sent: it cannot have landed. (No descriptor for the socket: it never opened.) */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', ...OUT_OF_DESCRIPTORS])

/**
 * Whether a write that failed may have taken effect all the same: the service did not refuse it
 * or send it elsewhere (a 3xx, a 4xx), and either it never answered in full (a timeout, a
 * connection lost after the request went out, a body cut off) or it answered 2xx or 5xx. A 503
 * too (contract: "timeout, reset, 5xx"): a gateway answers it when the service behind it took
 * the request and did not answer in time.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false
  const status = error.status
  if (status === undefined) {
    const cause = (error as { cause?: unknown }).cause
    // A proxy that refused the tunnel (CONNECT) took nothing to the service.
    return !NEVER_SENT.has(errorCode(cause) ?? '') && proxyRefusal(cause) === undefined
  }
  return status < 300 || status >= 500
}

const MAY_HAVE_LANDED = '; it may or may not have been applied: run scansync plan to see'

/**
 * Fields' paths as a message names them: a list key holding a secret of the run (a header named
 * after a short password) is (sensitive), as plans print it (render/rows.ts): the output step
 * leaves a weak secret in a text.
 */
export const pathsInWords = (paths: readonly string[], holds: ((text: string) => boolean) | undefined): string => paths.map((path) => maskedKeys(path, holds)).join(', ')

/**
 * The service's words, with each field error placed at its YAML line. `live`: the resource as last
 * read, whose secrets held in clear the words may quote (see withoutHeldSecrets).
 */
export function describeFailure(error: unknown, kind: ResourceKind, desired: DesiredResource, live: JsonObject = {}): string {
  const words = withoutHeldSecrets(serviceWords(error, kind, desired), kind, live)
  if (words !== undefined) return words
  const status = (error as { status?: unknown }).status
  return `the service answered ${typeof status === 'number' ? status : 'with an error'}; its words are withheld: they quote a secret the ${kind.name} holds, too short or too common to hide inside them` + (mayHaveLanded(error) ? MAY_HAVE_LANDED : '')
}

/**
 * A service may quote in an error what it holds in clear for the resource (a password it does not
 * obfuscate, its URL's password) or a URL with a password: secrets the run's redaction never
 * learnt, being read, not declared. Each is replaced; undefined when one is too short or too common
 * to replace without showing where it was (the words are then withheld, as the client does for the
 * run's own such secrets).
 */
function withoutHeldSecrets(message: string, kind: ResourceKind, live: JsonObject): string | undefined {
  const held = [...liveSecrets(kind, live), ...urlPasswords(message)]
  if (held.length === 0) return message
  const redaction = new Redaction()
  redaction.add(held)
  return redaction.withholds() && redaction.mentionsWeak(message) ? undefined : withoutCutSecrets(redaction.redact(message), held)
}

/** How the client ends a service's words it shortened (client/responses.ts). */
const CUT = '\u2026'

/**
 * The words are shortened before they reach apply: a held secret the cut went through is no
 * longer found whole, and its start, just before the cut, is replaced here.
 */
function withoutCutSecrets(message: string, held: readonly string[]): string {
  if (!message.includes(CUT)) return message
  const forms = [...new Set(held.flatMap(writtenForms))]
  let out = ''
  let last = 0
  const borders = new Map<string, Int32Array>()
  for (let at = message.indexOf(CUT); at !== -1; at = message.indexOf(CUT, at + 1)) {
    let longest = 0
    for (const form of forms) {
      if (form.length < 2) continue
      let border = borders.get(form)
      if (border === undefined) borders.set(form, (border = bordersOf(form)))
      longest = Math.max(longest, startBefore(message, Math.max(last, at - (form.length - 1)), at, form, border))
    }
    out += message.slice(last, at - longest) + (longest > 0 ? SENSITIVE : '')
    last = at
  }
  return out + message.slice(last)
}

/** Knuth–Morris–Pratt's table: for each prefix of `form`, the length of its longest proper border. */
function bordersOf(form: string): Int32Array {
  const border = new Int32Array(form.length)
  for (let i = 1, k = 0; i < form.length; i++) {
    while (k > 0 && form[i] !== form[k]) k = border[k - 1]!
    if (form[i] === form[k]) k++
    border[i] = k
  }
  return border
}

/**
 * The length of the longest start of `form` that `message` ends with at `end`, read from `from`
 * (no nearer than form.length - 1 before it: never the whole form). One pass: a long secret and
 * words of repeated characters cost their lengths, not their product.
 */
function startBefore(message: string, from: number, end: number, form: string, border: Int32Array): number {
  let k = 0
  for (let i = from; i < end; i++) {
    while (k > 0 && message[i] !== form[k]) k = border[k - 1]!
    if (message[i] === form[k]) k++
  }
  return k
}

function serviceWords(error: unknown, kind: ResourceKind, desired: DesiredResource): string {
  const message = (error instanceof Error ? error.message : String(error)) + (mayHaveLanded(error) ? MAY_HAVE_LANDED : '')
  const problems = (error as { problems?: FieldProblem[] }).problems
  if (!Array.isArray(problems) || problems.length === 0) return message
  // The service's reason, when it gave one beside the field errors, comes first.
  const detail = (error as { detail?: unknown }).detail
  return [
    ...(typeof detail === 'string' && detail !== '' ? [detail] : []),
    ...problems.map(({ path, messages }) => {
      const yamlPath = kind.yamlPlace(path)
      const segments = yamlPath.split(/[.[\]]+/).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s))
      const where = segments.length > 0 && !['non_field_errors', 'detail'].includes(yamlPath) ? desired.locate(segments) : desired.source
      return `${yamlPath || 'request'}: ${messages.join(' ')} (${where.file}:${where.line})`
    }),
  ].join('; ')
}
