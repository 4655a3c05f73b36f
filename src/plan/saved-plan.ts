import { createHmac, timingSafeEqual } from 'node:crypto'
import { validator } from '../schema/validators.js'
import { SENSITIVE, type DesiredResource, type Env, type JsonObject, type KindName, type NaturalKey } from '../core/types.js'
import { escapeTemplate, interpolate } from '../config/interpolate.js'
import { ScansyncError, UsageError } from '../core/errors.js'
import type { SavedPlan } from '../schema/generated.js'
import { canonicalJson } from './canonical.js'
import type { Comparison } from './build-plan.js'
import type { FieldChange, Plan, ResourceChange } from './model.js'
import type { NamesById } from './names.js'
import type { PolicyRule } from '../config/policies.js'
import { isObject } from '../core/json.js'
import { declaredSecrets, liveSecrets } from '../secrets/redact.js'
import { holdsUrlPassword, isSensitive } from '../schema/sensitivity.js'
import { formatPath } from '../core/diagnostics.js'
import { KINDS } from '../resources/index.js'
import { declaredLabel } from '../resources/label.js'
import { maskedKeys, plannedKey, sealFingerprint, type PlannedResource } from './staleness.js'
import { showsAsSet } from './diff.js'
import { basePath } from '../client/base-url.js'
import { urlParameterSpans, urlPasswordSpans } from '../core/url.js'
import type { NameReference } from '../resources/identity.js'

/**
 * A saved plan is a value: encoded and decoded here without I/O. It holds, per resource, the
 * declared fields (secrets as their `${NAME}` reference) and a fingerprint of the live values the
 * plan was computed from; never a request. Apply rebuilds each request from the id and the fields
 * and a fresh read. The checksum is an HMAC keyed by the state key (or the token), so an edited
 * plan is refused.
 */
// 4: fingerprints of normalized values, paths relative to the plan file, names (fourteenth round).
// 5: the policy rules, checked again by apply --plan (eighteenth round).
// 6: the references by name of each resource, resolved again by apply --plan (twenty-first round).
export const SAVED_PLAN_VERSION = 6

type SavedResource = SavedPlan['resources'][number]

/** Maps every string of a value (objects and lists deeply); `place` is its dotted place with list indexes. */
function mapStrings(value: unknown, map: (text: string, place: string) => string, place = ''): unknown {
  if (typeof value === 'string') return map(value, place)
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, map, `${place}[${i}]`))
  if (isObject(value)) {
    const out: JsonObject = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: mapStrings(item, map, place ? `${place}.${key}` : key), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}

/**
 * How a saved plan writes a text that is no template: as a literal (every `${` escaped), unless it
 * holds a value the run's redaction hides in files (a variable's value that a literal happens to
 * contain, or a whole URL written with a variable) or a secret the live resource holds in clear
 * (`held`: the plan shows such a value as (sensitive)). The file then writes each variable's value
 * as the `${NAME}` it came from, so that the file holds no secret and apply --plan expands the text
 * back to the very same literal (the variables are sealed, so a different value there is refused);
 * what still holds a secret then is refused. Redacting the file after the checksum would corrupt it.
 */
interface LiteralWriter {
  (text: string, where: () => string, held: readonly string[]): string
}

/** The `${NAME}` references the templates use, by the value each expands to here (longest first). */
function referencesByValue(changed: readonly Comparison[], env: Env): Array<[string, string]> {
  const byValue = new Map<string, string>()
  for (const { desired } of changed) {
    for (const template of desired.templates.values()) {
      for (const match of template.split('$${').join('').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)) {
        if (/^SCANSYNC_/i.test(match[1]!)) continue
        const { value, errors } = interpolate(match[0], env)
        // A variable that is set is referred to without its fallback (the fallback may be a secret of the run too).
        const reference = Object.hasOwn(env, match[1]!) && env[match[1]!] !== undefined ? `\${${match[1]}}` : match[0]
        if (errors.length === 0 && value !== '' && !byValue.has(value)) byValue.set(value, reference)
      }
    }
  }
  return [...byValue].sort(([a], [b]) => b.length - a.length)
}

const regexEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The literal writer of a run: `redact` is its file redaction, `holds` whether a text holds a
 * secret of the run (a weak one too, which the redaction leaves in texts), `env` its variables.
 */
function literalWriter(changed: readonly Comparison[], redact: (text: string) => string, holds: ((text: string) => boolean) | undefined, env: Env, refused: string[]): LiteralWriter {
  const hidden = (text: string, held: readonly string[]) => redact(JSON.stringify(text)) !== JSON.stringify(text) || held.some((secret) => text.includes(secret)) || holds?.(text) === true
  // Only values the redaction hides are written as references (a short or common one it leaves in texts stays literal).
  const references = referencesByValue(changed, env).filter(([value]) => hidden(value, []))
  const pattern = references.length > 0 ? new RegExp(references.map(([value]) => regexEscape(value)).join('|'), 'g') : undefined
  const tokenOf = new Map(references)
  return (text, where, held) => {
    if (!hidden(text, held)) return escapeTemplate(text)
    // Two values that overlap in the text (`Alpha9Bravo7` and `Bravo7Charlie5` in one word) cannot
    // both be written as references: whichever were, the rest of the other would stay in clear.
    if (pattern && overlapping(text, references)) {
      refused.push(where())
      return escapeTemplate(text)
    }
    let written = ''
    let last = 0
    // The parts left as they are, each looked at alone (a reference's own name, `${SHOP_LOGIN_PASSWORD}`, may hold a weak secret: `password`).
    const literals: string[] = []
    for (const match of pattern ? text.matchAll(pattern) : []) {
      literals.push(text.slice(last, match.index))
      written += escapeTemplate(text.slice(last, match.index)) + tokenOf.get(match[0])!
      last = match.index! + match[0].length
    }
    literals.push(text.slice(last))
    written += escapeTemplate(text.slice(last))
    // Only a writing that expands back to the same text and leaves nothing hidden as it is, is kept.
    if (interpolate(written, env).value === text && !literals.some((part) => hidden(part, held))) return written
    refused.push(where())
    return escapeTemplate(text)
  }
}

/**
 * Whether two occurrences of the values in `text` overlap in part. One inside another
 * (`example.com` in `shop.example.com`) does not: the longer is written as its reference whole.
 */
function overlapping(text: string, references: ReadonlyArray<[string, string]>): boolean {
  const spans: Array<[number, number]> = []
  for (const [value] of references) for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) spans.push([at, at + value.length])
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  let coverEnd = -1
  for (const [start, end] of spans) {
    if (start >= coverEnd) coverEnd = end
    else if (end > coverEnd) return true
  }
  return false
}

/** The declaration as templates: secrets as their ${NAME} reference, every other `${` escaped (see LiteralWriter). */
const templatedFields = (desired: DesiredResource, literal: LiteralWriter, held: readonly string[], holds?: (text: string) => boolean): JsonObject =>
  mapStrings(desired.fields, (text, place) => desired.templates.get(place) ?? literal(text, () => {
    const where = desired.locate(placeSegments(place))
    return `${where.file}:${where.line}: ${declaredLabel(desired, holds)}: ${place}`
  }, held)) as JsonObject

/** `site.headers[0].value` as path segments. */
const placeSegments = (place: string): Array<string | number> => place.split(/[.[\]]+/).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s))

function savedResource({ kind, desired, live, fingerprint }: Comparison, key: string, literal: LiteralWriter, holds?: (text: string) => boolean, references: readonly NameReference[] = []): SavedResource {
  // A literal the YAML writes that holds a live URL's password (a staging site's `staging`) is saved
  // as written, as the plan shows it; one that holds a secret the service holds in clear is refused.
  const held = liveSecrets(kind, live, { urlPasswords: false })
  const fields = templatedFields(desired, literal, held, holds)
  // The names its ids came from, written as its other texts are (a name from a variable was refused: refuseNamesFromVariables).
  const names = references.map((reference) => ({
    place: reference.place,
    name: literal(reference.name, () => {
      const where = desired.locate(placeSegments(reference.place))
      return `${where.file}:${where.line}: ${declaredLabel(desired, holds)}: ${reference.place}`
    }, held),
    ...(reference.byRename ? { renamed: true as const } : {}),
  }))
  return {
    kind: kind.name,
    id: desired.id,
    // A URL written with a variable is kept as its template (decodeSavedPlan expands it again).
    ...(desired.id === '' && desired.naturalKey
      ? { natural_key: { ...desired.naturalKey, value: desired.templates.get(desired.naturalKey.field) ?? literal(desired.naturalKey.value, () => `${desired.source.file}:${desired.source.line}: ${desired.kind}: ${desired.naturalKey!.field}`, held) } }
      : {}),
    source: desired.source,
    fields,
    fingerprint: sealFingerprint(fingerprint, key),
    // Sealed wherever the file refers to a variable: a template, or a literal written with one.
    ...(desired.templates.size > 0 || variableNames(fields).length > 0 ? { variables: sealedValues(desired.fields, key) } : {}),
    ...(names.length > 0 ? { names } : {}),
  }
}

/**
 * The declared fields with their variables expanded, as a saved plan keeps them: an HMAC keyed as
 * its checksum (the values are secrets). apply --plan expands the variables again and compares.
 */
const sealedValues = (fields: JsonObject, key: string): string => createHmac('sha256', key).update(`scansync variables ${canonicalJson(fields)}`, 'utf8').digest('hex')

export const savedPlanChecksum = (document: Omit<SavedPlan, 'checksum'>, key: string): string =>
  createHmac('sha256', key).update(canonicalJson(document), 'utf8').digest('hex')

/**
 * A saved plan holds secrets only as their `${NAME}` reference. A secret written in the YAML
 * itself (flagged `*_is_sensitive`, or an otp_secret) has no reference to keep, so a plan that
 * would have to store it is refused, naming each place, before anything is written.
 */
function refuseLiteralSecrets(comparisons: readonly Comparison[], holds?: (text: string) => boolean): void {
  const places = comparisons.flatMap((comparison) => {
    const { desired } = comparison
    const at = (segments: Array<string | number>, place: string, why = '') => {
      const where = desired.locate(segments)
      return `${where.file}:${where.line}: ${declaredLabel(desired, holds)}: ${place}${why}`
    }
    const declared = declaredSecrets(desired).filter((secret) => !secret.fromVariable)
    const known = new Set(declared.map((secret) => secret.place))
    const markedLive = literalsTheServiceHides(comparison).filter((found) => !known.has(found.place))
    for (const found of markedLive) known.add(found.place)
    const urlPasswords = literalUrlPasswords(desired).filter((found) => !known.has(found.place))
    return [
      ...declared.map((secret) => at(secret.segments, secret.place)),
      ...markedLive.map((found) => at(found.segments, found.place, ' (the service marks it sensitive)')),
      ...urlPasswords.map((found) => at(found.segments, found.place, found.parameter ? ' (a URL with a credential parameter in it)' : ' (a URL with a password in it)')),
    ]
  })
  if (places.length === 0) return
  throw new ScansyncError(
    `cannot save the plan: a saved plan keeps secrets only as \${NAME} references, and ${places.length === 1 ? 'this secret is' : 'these secrets are'} written in the YAML itself:\n  ${places.join('\n  ')}\n` +
      'Move each into an environment variable (value: ${MY_SECRET}), or apply without a saved plan.',
  )
}

/**
 * The plan as saved, where the redaction left a weak secret of the run as it is (too short or
 * common to replace in texts): a resource's name holding one is (sensitive), and so is a list key
 * holding one, whole, as a fresh read names the key once the file writes it as its `${NAME}`
 * (staleness.ts matches the two). Values holding one are (sensitive) already (compare).
 */
function withoutWeakSecrets(plan: SavedPlan['plan'], holds: (text: string) => boolean): SavedPlan['plan'] {
  const holding = (value: unknown) => value !== undefined && value !== null && holds(typeof value === 'string' ? value : JSON.stringify(value))
  return {
    ...plan,
    changes: plan.changes.map((change) => ({
      ...change,
      ...(typeof change.name === 'string' && holds(change.name) ? { name: SENSITIVE } : {}),
      fields: change.fields.map((field) => ({
        ...field,
        path: maskedKeys(field.path, holds),
        // A target to create shows its values as declared (no live value to compare them with).
        ...(!field.sensitive && (holding(field.before) || holding(field.after)) ? { sensitive: true, before: SENSITIVE, after: SENSITIVE } : {}),
      })) as typeof change.fields,
    })),
  }
}

/**
 * A team or an agent named by a variable (`teams: [{name: "${TEAM}"}]`): the plan resolved the
 * name to an id, which apply --plan would send, and the file could keep only the `${TEAM}` of the
 * name, or the id, which says which name the variable holds. Refused up front, as a literal secret is.
 */
function refuseNamesFromVariables(comparisons: readonly Comparison[], env: Env, holds?: (text: string) => boolean): void {
  const places: string[] = []
  for (const { desired } of comparisons) {
    for (const [place, template] of desired.templates) {
      if (!/^(teams\[\d+\]|scanning_agent)\.id$/.test(place)) continue
      const segments = place.split(/[.[\]]+/).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s))
      let value: unknown = desired.fields
      for (const segment of segments) value = isObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[segment] : undefined
      // `{id: "${AGENT_ID}"}` is an id from a variable, which the file keeps as its reference.
      if (interpolate(template, env).value === value) continue
      const where = desired.locate(segments.slice(0, -1))
      places.push(`${where.file}:${where.line}: ${declaredLabel(desired, holds)}: ${place.replace(/id$/, 'name')}`)
    }
  }
  if (places.length === 0) return
  throw new ScansyncError(
    `cannot save the plan: ${places.length === 1 ? 'this team or agent is' : 'these teams or agents are'} named by a variable, and a saved plan would have to hold the id the name stands for:\n  ${places.join('\n  ')}\n` +
      'Name it in the YAML or by its id, or apply without a saved plan.',
  )
}

/**
 * Literal values holding a URL with a password (`https://user:password@host/`) or a credential
 * parameter (`?access_token=…`): the plan shows them as (sensitive) whole (holdsUrlPassword, the
 * one rule for them), so a saved plan may not hold them. `parameter` when it is no password that
 * the URL holds (the message says which).
 */
function literalUrlPasswords(desired: DesiredResource): Array<{ place: string; segments: Array<string | number>; parameter: boolean }> {
  const found: Array<{ place: string; segments: Array<string | number>; parameter: boolean }> = []
  mapStrings(desired.fields, (text, place) => {
    if (!desired.templates.has(place) && holdsUrlPassword(text)) found.push({ place, segments: placeSegments(place), parameter: urlParameterSpans(text).length === urlPasswordSpans(text).length })
    return text
  })
  return found
}

/**
 * Literal values the YAML writes where the service marks the value sensitive (its
 * `<member>_is_sensitive` flag set, or the value answered obfuscated) though the YAML does not:
 * the plan shows them as (sensitive), so a saved plan may not hold them either. An entry of a list
 * is matched with the live one of its name (one without a name, with the one at its place).
 */
function literalsTheServiceHides({ kind, desired, live }: Comparison): Array<{ place: string; segments: Array<string | number> }> {
  const found: Array<{ place: string; segments: Array<string | number> }> = []
  const visit = (declared: unknown, answered: unknown, segments: Array<string | number>) => {
    if (Array.isArray(declared)) {
      const items = Array.isArray(answered) ? answered : []
      declared.forEach((item, i) => {
        const byName = isObject(item) && typeof item.name === 'string'
        visit(item, byName ? items.find((other) => isObject(other) && other.name === item.name) : items[i], [...segments, i])
      })
      return
    }
    if (!isObject(declared)) return
    const holder = isObject(answered) ? answered : undefined
    for (const [member, value] of Object.entries(declared)) {
      const here = [...segments, member]
      if (typeof value === 'string') {
        const place = formatPath(here)
        if (desired.templates.has(place) || !holder) continue
        const rulePath = here.filter((segment) => typeof segment === 'string').join('.')
        if (isSensitive({ member, rulePath, containers: [holder], values: [holder[member]], sensitiveFields: kind.sensitiveFields })) found.push({ place, segments: here })
      } else visit(value, holder?.[member], here)
    }
  }
  visit(desired.fields, live, [])
  return found
}

export interface SavedPlanInput {
  /** The comparisons of the resources that change. */
  changed: readonly Comparison[]
  /** The plan as its JSON document. */
  plan: SavedPlan['plan']
  apiUrl: string
  /** The configuration paths, relative to the plan file's directory. */
  paths: string[]
  /** The directory plan ran in (its positions' file names are relative to it), relative to the plan file's directory. */
  workingDirectory?: string
  /** The secrets state plan read when given by --state, relative to the plan file's directory. */
  state?: string
  version: string
  /**
   * The run's redaction of files (Redaction.file) and its variables: the document is written so
   * that the redaction leaves it as it is (see LiteralWriter), as a file changed after its
   * checksum could not be applied.
   */
  redact?: (text: string) => string
  /** Whether a text holds a secret of the run (Redaction.holds: a weak one too, which `redact` leaves in texts). */
  holds?: (text: string) => boolean
  env?: Env
  /** The names the plan showed for its references' ids (namesShown), for apply --plan to show them too. */
  names?: NamesById
  /** The configuration's policy rules, for apply --plan to check again on its fresh read. */
  policies?: readonly PolicyRule[]
  /** The references by name each resolved resource had turned into ids, by resource: apply --plan resolves them again. */
  references?: ReadonlyMap<DesiredResource, readonly NameReference[]>
}

export type SavedRule = NonNullable<SavedPlan['policies']>[number]

/**
 * The rules as a saved plan keeps them: their schemas as compiled. A rule is the repository's own
 * text, never a variable's value (a weak secret a rule's words happen to hold tells nothing the
 * repository does not). One that holds a secret the file's output step would rewrite is refused,
 * as a literal value holding one is: rewritten after the checksum, the file would be refused as
 * modified, and rewritten before it, apply --plan would check another rule.
 */
function savedRules(rules: readonly PolicyRule[], redact: (text: string) => string): SavedRule[] {
  const saved = rules.map((rule): SavedRule => ({
    name: rule.name,
    description: rule.description,
    kind: rule.kind,
    level: rule.level,
    ...(rule.when ? { when: rule.when.schema } : {}),
    require: rule.require.schema,
    source: rule.source,
  }))
  const holding = saved.filter((rule) => {
    const text = JSON.stringify(rule)
    return redact(text) !== text
  })
  if (holding.length > 0) {
    const where = holding.map((rule) => `${rule.source.file}:${rule.source.line}: policy ${rule.name}`).join('\n  ')
    throw new ScansyncError(`cannot save the plan: ${holding.length === 1 ? 'this rule holds' : 'these rules hold'} a secret of the run (a variable's value equals a text of the rule), which a saved plan cannot write:\n  ${where}\nApply without a saved plan, or give the secret another value.`)
  }
  return saved
}

/** The saved plan of a plan (refused when it would have to hold a secret). */
export function encodeSavedPlan(input: SavedPlanInput, key: string): SavedPlan {
  refuseLiteralSecrets(input.changed, input.holds)
  refuseNamesFromVariables(input.changed, input.env ?? {}, input.holds)
  const refused: string[] = []
  const literal = literalWriter(input.changed, input.redact ?? ((text) => text), input.holds, input.env ?? {}, refused)
  const resources = input.changed.map((comparison) => savedResource(comparison, key, literal, input.holds, input.references?.get(comparison.desired)))
  if (refused.length > 0) {
    throw new ScansyncError(
      `cannot save the plan: ${refused.length === 1 ? 'this literal value holds' : 'these literal values hold'} a secret of the run (a variable's value, or a secret the service holds) that a saved plan cannot write as a \${NAME} reference:\n  ${refused.join('\n  ')}\n` +
        'Write the variable (${NAME}) there instead of its value, or apply without a saved plan.',
    )
  }
  // The plan as shown: redacted as stdout showed it (apply --plan shows it again; it builds nothing).
  const redacted = input.redact ? (JSON.parse(input.redact(JSON.stringify(input.plan))) as SavedPlan['plan']) : input.plan
  const plan = input.holds ? withoutWeakSecrets(redacted, input.holds) : redacted
  const document: Omit<SavedPlan, 'checksum'> = {
    format_version: SAVED_PLAN_VERSION,
    kind: 'scansync-saved-plan',
    scansync_version: input.version,
    api_url: input.apiUrl,
    paths: input.paths,
    ...(input.workingDirectory !== undefined ? { working_directory: input.workingDirectory } : {}),
    ...(input.state !== undefined ? { state: input.state } : {}),
    plan,
    ...(input.names !== undefined && (input.names.agent || input.names.team) ? { names: input.names } : {}),
    ...(input.policies && input.policies.length > 0 ? { policies: savedRules(input.policies, input.redact ?? ((text) => text)) } : {}),
    resources,
  }
  return { ...document, checksum: savedPlanChecksum(document, key) }
}

export interface DecodedPlan {
  plan: Plan
  /** The names plan showed for the ids its references hold. */
  names?: NamesById
  apiUrl?: string
  paths: string[]
  /** The directory plan ran in, relative to the plan file's directory (absent in a plan saved before it was kept). */
  workingDirectory?: string
  /** The secrets state plan was given by --state, relative to the plan file's directory. */
  state?: string
  resources: PlannedResource[]
  /** The policy rules the plan was made with (none: the configuration had none). */
  policies: SavedRule[]
}

const OWN_VARIABLE = /\$\{(SCANSYNC_[A-Za-z0-9_]*)/i

/**
 * A saved plan, checked and restored: its shape, its keyed checksum, each change tied to its
 * resource's own request path, and its templates resolved from the environment, scansync's own
 * variables (SCANSYNC_*) left out.
 */
export function decodeSavedPlan(document: unknown, options: { key: string; env: Env; file: string }): DecodedPlan {
  const { file } = options
  if (isObject(document) && document.kind === 'scansync-saved-plan' && document.format_version !== SAVED_PLAN_VERSION) {
    throw new ScansyncError(`${file} was saved by another version of scansync (format ${String(document.format_version)}); run scansync plan --out again`)
  }
  // The plan as `plan --format json` prints it (or apply's report), saved by hand: said as such.
  if (isObject(document) && document.kind === undefined && Array.isArray(document.changes) && isObject(document.summary)) {
    throw new ScansyncError(`${file} is a plan as --format json prints it, not a saved plan: save one with scansync plan --out FILE, and apply that file`)
  }
  const validate = validator('savedPlan')
  if (!validate(document)) throw new ScansyncError(`${file} is not a scansync saved plan (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`)
  const { checksum, ...rest } = document as SavedPlan
  if (!sameHex(savedPlanChecksum(rest, options.key), checksum)) {
    throw new ScansyncError(
      `${file} was modified after it was written (checksum mismatch), or was written with another key: run scansync plan --out again ` +
        '(plan and apply must share SCANSYNC_STATE_KEY, or the API token when it is not set)',
    )
  }
  const saved = document as SavedPlan
  // scansync's own variables are never expanded (restoreDesired and interpolate refuse them); the
  // token and the state key stay in view only so that a variable holding either is refused too.
  const { SCANSYNC_API_TOKEN, SCANSYNC_STATE_KEY } = options.env
  const env = { ...Object.fromEntries(Object.entries(options.env).filter(([name]) => !/^SCANSYNC_/i.test(name))), SCANSYNC_API_TOKEN, SCANSYNC_STATE_KEY }
  const restored = saved.resources.map((resource) => restoreDesired(resource, env))
  // The names the plan showed for its references' ids: a reference the service answers by name
  // alone (no id) is compared with them, as the plan compared it with the names it read.
  const referenceNames = savedReferenceNames(saved.names)
  if (referenceNames !== undefined) for (const desired of restored) desired.referenceNames = referenceNames
  const changes = new Map(savedChanges(saved, restored).map((change) => [plannedKey(change), change]))
  const differing: string[] = []
  const resources = saved.resources.map((resource, i): PlannedResource => {
    const desired = restored[i]!
    const key = plannedKey(desired)
    const change = changes.get(key)
    if (!change) throw new ScansyncError(`${file}: ${resource.kind} ${resource.id || resource.natural_key?.value} has no change in the plan; run scansync plan --out again`)
    changes.delete(key)
    if (resource.variables !== undefined && !sameHex(sealedValues(desired.fields, options.key), resource.variables)) differing.push(`${resource.kind} ${resource.id || resource.natural_key?.value} (${variableNames(resource.fields).join(', ')})`)
    const references = resource.names && savedReferences(resource, desired, env, file)
    return { desired, change, fingerprint: resource.fingerprint, fingerprintKey: options.key, ...(references ? { references } : {}) }
  })
  // What would be sent is not what was planned: a secret rotated since, or a fallback used for a variable not set here.
  if (differing.length > 0) {
    throw new ScansyncError(
      `${file}: the variables of ${differing.join(', ')} do not hold the values the plan was made with (a variable not set here uses its fallback); ` +
        'nothing was sent. Set the same values as when the plan was made, or run scansync plan --out again.',
    )
  }
  if (changes.size > 0) throw new ScansyncError(`${file}: the plan changes ${[...changes.keys()].join(', ')} but holds no declaration of it; run scansync plan --out again`)
  return { plan: { changes: resources.map((r) => r.change), summary: plannedSummary(saved.plan.summary) }, names: saved.names, apiUrl: saved.api_url, paths: saved.paths, ...(saved.working_directory !== undefined ? { workingDirectory: saved.working_directory } : {}), ...(saved.state !== undefined ? { state: saved.state } : {}), resources, policies: saved.policies ?? [] }
}

/** A saved plan's names by id as DesiredResource.referenceNames; a name shown (sensitive) names nothing. */
function savedReferenceNames(names: NamesById | undefined): DesiredResource['referenceNames'] {
  if (names === undefined) return undefined
  const byId = (shown: Record<string, string> | undefined) => new Map(Object.entries(shown ?? {}).filter(([, name]) => name !== SENSITIVE))
  return { agent: byId(names.agent), team: byId(names.team) }
}

/**
 * A saved resource's references by name, restored: each name expanded as its fields are, and the id
 * its field holds at the place. One that does not fit its resource was not written by scansync.
 */
function savedReferences(saved: SavedResource, desired: DesiredResource, env: Env, file: string): NameReference[] {
  return (saved.names ?? []).map((written) => {
    const kind = written.place.startsWith('teams') ? 'team' : 'agent'
    const reference = getPlace(desired.fields, placeSegments(written.place.replace(/\.name$/, '')))
    const id = isObject(reference) ? reference.id : undefined
    const own = OWN_VARIABLE.test(written.name.split('$${').join(''))
    const { value, errors, fromVariable } = interpolate(written.name, env)
    if (typeof id !== 'string' || (kind === 'agent') !== (desired.kind === 'target') || own || errors.length > 0) {
      throw new ScansyncError(`${file}: ${saved.kind} ${saved.id || saved.natural_key?.value}: the name at ${written.place} does not fit the resource; run scansync plan --out again`)
    }
    return { place: written.place, kind, name: value, id, fromVariable, ...(written.renamed ? { byRename: true } : {}) }
  })
}

/** The value at a place of the fields (path segments). */
const getPlace = (value: unknown, segments: ReadonlyArray<string | number>): unknown =>
  segments.reduce<unknown>((at, segment) => (isObject(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[segment] : undefined), value)

/** The `${NAME}`s a saved resource's fields refer to, once each, in order. */
function variableNames(fields: unknown): string[] {
  const names = new Set<string>()
  mapStrings(fields, (text) => {
    for (const match of text.split('$${').join('').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(`\${${match[1]}}`)
    return text
  })
  return [...names]
}

const sameHex = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** A saved resource as a declared resource again, its templates resolved from `env`. */
export function restoreDesired(saved: SavedResource, env: Env): DesiredResource {
  const templates = new Map<string, string>()
  const errors: string[] = []
  // A target to create has no id: it is named by its URL as the file writes it (`${APP_URL}`).
  const name = `${saved.kind} ${saved.id || saved.natural_key?.value}`
  const resolveText = (text: string, place: string) => {
    const own = OWN_VARIABLE.exec(text.split('$${').join(''))
    if (own) {
      errors.push(`${name}: ${place}: refers to \${${own[1]}}: scansync's own variables are never expanded from a saved plan`)
      return ''
    }
    const result = interpolate(text, env)
    errors.push(...result.errors.map((e) => `${name}: ${place}: ${e}`))
    if (result.fromVariable) templates.set(place, text)
    return result.value
  }
  const fields = mapStrings(saved.fields, resolveText) as JsonObject
  // A natural key written with a variable (a URL from ${APP_URL}) is its template: expanded as the fields are.
  const naturalKey = saved.natural_key ? ({ ...saved.natural_key, value: resolveText(saved.natural_key.value, saved.natural_key.field) } as NaturalKey) : undefined
  // The natural key is the field it names (site.url), resolved twice: each problem is said once.
  if (errors.length > 0) throw new ScansyncError([...new Set(errors)].join('\n'))
  const source = saved.source ?? { file: '(saved plan)', line: 1, column: 1 }
  return {
    kind: saved.kind as KindName,
    id: saved.id,
    ...(naturalKey ? { naturalKey } : {}),
    fields,
    templates,
    source,
    locate: () => source,
  }
}

/**
 * The plan's changes as the plan model. Method and path are the resource's own, whatever the file
 * says: a change naming another resource's path is refused.
 */
export function savedChanges(saved: SavedPlan, restored?: readonly DesiredResource[]): ResourceChange[] {
  const sourceOf = (kind: string, id: string) => saved.resources.find((r) => r.kind === kind && r.id === id)?.source
  return saved.plan.changes.map((change, i): ResourceChange => {
    const kind = KINDS[change.kind as KindName]
    if (!kind) throw new ScansyncError(`the saved plan changes a resource of unknown kind ${JSON.stringify(change.kind)}`)
    const fields = change.fields.map((f) => ({
      path: f.path,
      before: f.before ?? undefined,
      after: f.after ?? undefined,
      sensitive: f.sensitive,
      ...(f.reason ? { reason: f.reason as FieldChange['reason'] } : {}),
    }))
    if (change.action === 'create') {
      // Only a target is ever created, with POST to the list: anything else was not written by scansync.
      // The plan shows the URL as stdout did, (sensitive) when written with a variable: the
      // resource saved with the change (changes and resources are saved in one order) holds it.
      const own = restored?.[i]?.id === '' && restored[i]!.kind === 'target' ? restored[i] : undefined
      const url = own?.naturalKey?.value ?? fields.find((f) => f.path === 'site.url' && !f.sensitive)?.after
      if (kind.name !== 'target' || change.id !== null || change.method !== 'POST' || change.path !== kind.listPath || typeof url !== 'string') {
        throw new ScansyncError(`the saved plan's creation of a ${change.kind} names ${change.method} ${change.path}, not POST ${kind.listPath} with a site.url; run scansync plan --out again`)
      }
      const naturalKey: NaturalKey = { field: 'site.url', value: url }
      const source = own?.source ?? saved.resources.find((r) => r.id === '' && r.natural_key?.value === url)?.source
      return { ...(source ? { source } : {}), kind: kind.name, id: '', name: change.name ?? null, action: 'create', method: 'POST', path: kind.listPath, naturalKey, fields }
    }
    const id = change.id ?? ''
    if (change.method !== kind.method || change.path !== kind.itemPath(id)) {
      throw new ScansyncError(`the saved plan's change of ${change.kind} ${id} names ${change.method} ${change.path}, not the resource's own request; run scansync plan --out again`)
    }
    const source = sourceOf(change.kind, id)
    return {
      ...(source ? { source } : {}),
      kind: kind.name,
      id,
      name: change.name ?? null,
      action: 'update',
      method: kind.method,
      path: kind.itemPath(id),
      // The document keeps no set flag: the kind's rule for the field says it, as it did for the plan.
      fields: fields.map((f) => (showsAsSet(kind.rules[f.path]) ? { ...f, set: true } : f)),
    }
  })
}

/** A selection would silently apply more (or other) than asked for: a saved plan is applied whole. */
export function refuseSelection(selection: { paths: readonly string[]; kinds?: readonly string[]; ids?: readonly string[] }): void {
  if (selection.paths.length > 0 || (selection.kinds?.length ?? 0) > 0 || (selection.ids?.length ?? 0) > 0) {
    throw new UsageError('--plan applies the saved plan whole: leave out configuration paths, --kind and --id (select when making the plan)')
  }
}

/**
 * The service a saved plan goes to: the one named by flag or environment (`given`), never the one
 * the file names, which is only compared with it.
 */
export function serviceForSavedPlan(given: string | undefined, madeAgainst: string | undefined): string {
  if (!given) throw new UsageError('no service URL: pass --api-url URL or set SCANSYNC_API_URL (a saved plan is only checked against the URL it names, never sent to it)')
  if (madeAgainst && !sameService(madeAgainst, given)) throw new UsageError(`the saved plan was made against ${madeAgainst}, not ${given}; make a new plan for this service`)
  return given
}

/** The same service: scheme, host, port and base path equal, whatever the case or trailing slashes. */
export function sameService(a: string, b: string): boolean {
  const key = (url: string) => {
    try {
      const parsed = new URL(url.trim())
      return `${parsed.origin}${basePath(parsed)}`
    } catch {
      return url
    }
  }
  return key(a) === key(b)
}

/** The summary as the plan model holds it: `create` only when something is created. */
function plannedSummary({ create, change, unchanged }: SavedPlan['plan']['summary']): Plan['summary'] {
  return { ...(create ? { create } : {}), change, unchanged }
}
