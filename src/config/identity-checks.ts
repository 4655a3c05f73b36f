import type { Diagnostic, SourcePosition } from '../core/diagnostics.js'
import { formatPath, samePlace } from '../core/diagnostics.js'
import { SENSITIVE, type DesiredResource, type KindName, type NaturalKey } from '../core/types.js'
import { configLists } from '../schema/config-lists.js'
import { kindEntries } from '../schema/kinds.js'
import { comparableUrl } from '../core/url.js'
import { getPath } from '../core/json.js'

/*
 * Identity of declared resources, as far as the files alone can tell (no live state): a target
 * or agent without `id` gets its natural key, and what could never be one resource per key is
 * refused. What needs the live lists (a key matching a target also declared by id elsewhere, an
 * unknown or ambiguous name) is resolved in src/resources/identity.ts.
 */

/** The kinds that may be declared without `id`, and the field that then identifies them. */
const NATURAL_KEY: Partial<Record<KindName, NaturalKey['field']>> = Object.fromEntries(kindEntries().flatMap(({ kind, naturalKey }) => (naturalKey ? [[kind, naturalKey]] : [])))
/** The same fields, as paths. */
const NATURAL_KEY_PATH: Partial<Record<KindName, readonly string[]>> = Object.fromEntries(Object.entries(NATURAL_KEY).map(([kind, field]) => [kind, field.split('.')]))


/**
 * The secret values of the configuration (secrets/redact.ts's secretValues, given by the caller: the
 * secrets are known a floor above): a natural key holding one is (sensitive) in the errors.
 */
export type SecretsOf = (resources: readonly DesiredResource[]) => readonly string[]

interface Declared {
  resource: DesiredResource
  /** `targets[3]`: the place in its file (resources come in file order, each kind in list order). */
  readonly place: string
  key?: { field: NaturalKey['field']; value: string; comparable: string }
}

/**
 * Gives each target and agent declared without `id` its `naturalKey` (and `id` ""), and returns
 * the problems: a target without id lacking `site.url`, an agent without id
 * lacking `name`, one key declared twice without id, or declared both without id and as the key
 * field of a resource with an id. Each duplicate is reported at both places.
 */
export function identifyDeclared(resources: DesiredResource[], secretsOf?: SecretsOf): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  const declared = places(resources)
  // The kinds some resource of which is declared without id: only their keys are compared.
  const withoutId = new Set<KindName>()
  for (const entry of declared) {
    const { resource } = entry
    const field = NATURAL_KEY[resource.kind]
    if (field === undefined || (typeof resource.id === 'string' && resource.id !== '')) continue
    withoutId.add(resource.kind)
    const value = getPath(resource.fields, NATURAL_KEY_PATH[resource.kind]!)
    resource.id = ''
    if (resource.kind === 'target') {
      // Its URL identifies it. Whether it also needs site.name (to be created) only the live list can tell (resources/identity.ts).
      if (typeof value !== 'string' || value === '') {
        diagnostics.push(at(resource.source, entry.place, `${entry.place}: a target without id needs site.url, which identifies it (and site.name too, to be created when no live target has that URL)`))
      }
    } else if (typeof value !== 'string' || value === '') {
      diagnostics.push(at(resource.source, entry.place, `${entry.place}: an agent without id needs its name, which identifies it (agents are created by installing them, never by scansync)`))
    }
    if (typeof value !== 'string' || value === '') continue
    resource.naturalKey = { field, value }
    entry.key = { field, value, comparable: comparable(field, value) }
  }
  if (withoutId.size === 0) return diagnostics
  // A resource with an id matters only if its kind has some declared without: its key may be theirs.
  for (const entry of declared) {
    const { resource } = entry
    if (!withoutId.has(resource.kind) || resource.id === '') continue
    const field = NATURAL_KEY[resource.kind]!
    const value = getPath(resource.fields, NATURAL_KEY_PATH[resource.kind]!)
    if (typeof value === 'string' && value !== '') entry.key = { field, value, comparable: comparable(field, value) }
  }
  for (const diagnostic of duplicateKeys(declared, () => secretsOf?.(resources) ?? [])) diagnostics.push(diagnostic)
  return diagnostics
}

function places(resources: DesiredResource[]): Declared[] {
  // The list each kind is declared in (the first, should two hold one kind).
  const listOf = new Map<KindName, string>()
  for (const { kind, list } of configLists()) if (!listOf.has(kind)) listOf.set(kind, list)
  const counts = new Map<string, Map<string, number>>()
  return resources.map((resource) => {
    const list = listOf.get(resource.kind)!
    let inFile = counts.get(resource.source.file)
    if (!inFile) counts.set(resource.source.file, (inFile = new Map()))
    const index = inFile.get(list) ?? 0
    inFile.set(list, index + 1)
    return new Place(resource, list, index)
  })
}

/** A declared resource and its place, worked out for the messages that name it. */
class Place implements Declared {
  key?: Declared['key']
  constructor(
    readonly resource: DesiredResource,
    private readonly list: string,
    private readonly index: number,
  ) {}

  get place(): string {
    return formatPath([this.list, this.index])
  }
}

/** One key, one declaration: two without id are one resource twice; one with an id is the same resource, or a second one with that key. */
function duplicateKeys(declared: Declared[], configSecrets: () => readonly string[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  // The configuration's secrets, worked out on the first error only (this runs before the first request).
  let secrets: string[] | undefined
  const holdsSecret = (text: string) => {
    secrets ??= configSecrets().map((secret) => secret.toLowerCase())
    const lower = text.toLowerCase()
    return secrets.some((secret) => lower.includes(secret))
  }
  const what = (entry: Declared, other: Declared) => `${entry.resource.kind} with ${entry.key!.field} ${shownKey(entry, other, holdsSecret)}`
  const firstWithoutId = new Map<string, Declared>()
  const withId = new Map<string, Declared>()
  for (const entry of declared) {
    if (!entry.key) continue
    const group = `${entry.resource.kind}\0${entry.key.comparable}`
    if (entry.resource.id !== '') {
      if (!withId.has(group)) withId.set(group, entry)
      continue
    }
    const earlier = firstWithoutId.get(group)
    if (earlier) {
      const message = (self: Declared, other: Declared) => `${what(self, other)} is declared twice without id: here and at ${where(other, self)} (without id, the ${self.key!.field} is what identifies it); declare it once`
      diagnostics.push(keyDiagnostic(entry, earlier, message(entry, earlier)), keyDiagnostic(earlier, entry, message(earlier, entry)))
    } else firstWithoutId.set(group, entry)
  }
  for (const [group, keyed] of firstWithoutId) {
    const pinned = withId.get(group)
    if (!pinned) continue
    const { kind, id } = pinned.resource
    const field = keyed.key!.field
    diagnostics.push(
      keyDiagnostic(keyed, pinned, `${what(keyed, pinned)} is declared here without id and at ${where(pinned, keyed)} as ${kind} ${id} with the same ${field}: one ${kind} would be declared twice, or two would share the ${field}; declare it once (keep the id)`),
      keyDiagnostic(pinned, keyed, `${kind} ${id}: ${field} ${shownKey(pinned, keyed, holdsSecret)} is also the ${field} of the ${kind} declared without id at ${where(keyed, pinned)}; declare it once (keep the id)`),
    )
  }
  return diagnostics
}

/**
 * The key two declarations share, quoted; (sensitive) when either takes it from a variable, or it
 * holds a secret of the configuration (a literal agent name equal to a password from a variable): it
 * is a secret, one too short to be replaced in the text (an agent's name) as well, and a literal
 * equal to it would say what it is.
 */
const shownKey = (entry: Declared, other: Declared, holdsSecret: (text: string) => boolean): string =>
  [entry, other].some(({ resource, key }) => resource.templates.has(key!.field)) || holdsSecret(entry.key!.value) ? SENSITIVE : JSON.stringify(entry.key!.value)

const where = (entry: Declared, other: Declared) => {
  const position = placeOf(entry, other)
  return `${position.file}:${position.line}`
}

const keyPosition = (entry: Declared): SourcePosition => entry.resource.locate(entry.key!.field.split('.'))

/**
 * Where a declaration of a key shared with `other` is shown: where its key is written, or, when
 * both take the key from one place (an anchor merged into both), where the declaration itself is,
 * so that the two errors name the two resources rather than one line twice.
 */
const placeOf = (entry: Declared, other: Declared): SourcePosition => {
  const key = keyPosition(entry)
  return samePlace(key, keyPosition(other)) ? entry.resource.source : key
}

function keyDiagnostic(entry: Declared, other: Declared, message: string): Diagnostic {
  return at(placeOf(entry, other), `${entry.place}.${entry.key!.field}`, message)
}

function at(position: SourcePosition, path: string, message: string): Diagnostic {
  return { file: position.file, line: position.line, column: position.column, path, message }
}

/** Keys compare as plans compare the field: URLs normalized, names exactly. */
function comparable(field: NaturalKey['field'], value: string): string {
  return field === 'site.url' ? comparableUrl(value) : value
}
