import { createRequire } from 'node:module'
import type { JsonObject } from '../core/types.js'
import type { FieldRule, ResourceKind } from '../resources/kind.js'
import { isObject } from '../core/json.js'
import { isObfuscated } from '../secrets/state.js'
import {
  accepts,
  allowsNull,
  defaultOf,
  isArrayNode,
  isObjectNode,
  itemsNode,
  memberNode,
  membersOf,
  requiredOf,
  rootNode,
  shorthandMember,
  type SchemaNode,
} from './schema.js'
import { holdsUrlPassword, isSensitive, urlPasswords } from '../schema/sensitivity.js'
import { Reference, type SecretNote, type VariableNamer } from './secrets.js'

// CommonJS: required, so that Node does not first scan its source for exports as it does for an import.
const equal = createRequire(import.meta.url)('fast-deep-equal') as typeof import('fast-deep-equal')

export interface SelectOptions {
  /** Keep values equal to the document's defaults (and fields whose switch is off). */
  includeDefaults?: boolean
  /**
   * `omit`: every secret is left out, with a note naming the variable to add (what is written
   * plans clean with no variable set). `reference` (default here): written as `${VARIABLE}`,
   * except a hidden one the request does not need.
   */
  secrets?: 'omit' | 'reference'
  /**
   * Whether a text holds a secret of the run (the API token, the state key, a secret of another
   * resource): the output step would write it as a placeholder, a value no plan could match. Such
   * a value is taken as a secret is (a list item holding one leaves its list out).
   */
  holdsRunSecret?: (text: string) => boolean
}

/** One live resource in the YAML's shape, reduced to what a person maintains. */
export interface Selected {
  id: string
  /** The declared fields, without `id`, in the request schema's order; secrets as References. */
  fields: JsonObject
  notes: SecretNote[]
  /** The sensitive values met (to keep them out of any message); never written. */
  secretValues: string[]
  /** Live values a configuration cannot declare, left out (unmanaged) and said why. */
  leftOut: LeftOut[]
}

/** A live value import leaves out, not being a secret: where, and why. */
export interface LeftOut {
  field: string
  reason: string
}

const OMIT = Symbol('omit')
type Out = unknown

const join = (base: string, member: string) => (base ? `${base}.${member}` : member)

/** Equal to the document's default, or "not set": null, "", an empty list, an object with nothing left. */
function isDefault(node: SchemaNode, value: unknown): boolean {
  if (value === null || value === '') return true
  if (Array.isArray(value) && value.length === 0) return true
  if (isObject(value) && Object.keys(value).length === 0) return true
  const fallback = defaultOf(node)
  return fallback !== undefined && equal(fallback.value, value)
}

// An item without its key (a team answered by its name alone) is sorted and told apart by its whole value.
const sortKey = (value: unknown, key: string | undefined): string | number => {
  const v = key !== undefined && isObject(value) ? (value[key] !== undefined ? value[key] : JSON.stringify(value)) : value
  return typeof v === 'number' ? v : String(v)
}
const byKey = (key: string | undefined) => (a: unknown, b: unknown) => {
  const x = sortKey(a, key)
  const y = sortKey(b, key)
  if (typeof x === 'number' && typeof y === 'number') return x - y
  return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0
}

function uniqueBy(values: unknown[], key: string | undefined): unknown[] {
  const seen = new Set<string>()
  return values.filter((value) => {
    const identity = JSON.stringify(key !== undefined && isObject(value) && value[key] !== undefined ? value[key] : value)
    if (seen.has(identity)) return false
    seen.add(identity)
    return true
  })
}

/**
 * The fields of a live resource that a configuration would declare: the writable fields of the
 * kind's request schema, read from the kind's projection of the live response (labels as names
 * and colours, references as ids, api_scan_settings at the top level). Left out: response-only
 * fields, defaults (unless asked), values the configuration schema would refuse, fields filled
 * from scans. Sensitive values become `${VARIABLE}` references (or are left out where the service
 * hides an optional one), each with a note.
 */
export function selectFields(kind: ResourceKind, raw: JsonObject, namer: VariableNamer, options: SelectOptions = {}): Selected {
  const live = kind.project(raw)
  const id = String(raw.id)
  const notes: SecretNote[] = []
  const secretValues: string[] = []
  const leftOut: LeftOut[] = []
  const leaveOut = (field: string, reason: string): typeof OMIT => {
    if (!forNote) leftOut.push({ field, reason })
    return OMIT
  }
  const filledByScans = new Set(kind.filledByScans)
  const onlyWhile = kind.onlyWhile
  const ruleOf = (rule: string): FieldRule | undefined => kind.rules[rule]
  const holdsSecret = (text: string): boolean => options.holdsRunSecret?.(text) === true || holdsUrlPassword(text)

  // One name per field, however often it is walked (a left-out part is walked again for its note).
  const variables = new Map<string, string>()
  const variableFor = (display: string) => variables.get(display) ?? variables.set(display, namer.name(kind.name, id, display)).get(display)!
  // Set while a left-out part is walked again to show in its note how to add it: secrets as references.
  let forNote = false
  const omitSecrets = options.secrets === 'omit'

  const secret = (out: JsonObject, member: string, value: string, display: string, required: boolean): void => {
    const hidden = isObfuscated(value)
    // A URL's password may be quoted on its own elsewhere ("pw is …"): a secret there too.
    secretValues.push(value, ...urlPasswords(value))
    const variable = variableFor(display)
    if (!forNote && (omitSecrets || (hidden && !required))) {
      notes.push({ kind: kind.name, id, field: display, variable, hidden, written: false })
      return
    }
    notes.push({ kind: kind.name, id, field: display, variable, hidden, written: true })
    out[member] = new Reference(variable)
  }

  const object = (node: SchemaNode, value: JsonObject, rule: string, display: string, isRoot: boolean): Out => {
    const out: JsonObject = {}
    // The configuration makes every top-level field optional; inside, requirements stand.
    const required = isRoot ? [] : requiredOf(node)
    for (const member of membersOf(node)) {
      if (!Object.hasOwn(value, member)) continue
      const here = join(rule, member)
      const shown = join(display, member)
      if (filledByScans.has(here)) continue
      const relevant = Object.hasOwn(onlyWhile, here) ? onlyWhile[here] : undefined
      if (relevant && !options.includeDefaults && !relevant(live)) continue
      const child = memberNode(node, member)!
      const current = value[member]
      if (typeof current === 'string' && current !== '') {
        const sensitive = isSensitive({ member, rulePath: here, containers: [value], values: [current], sensitiveFields: kind.sensitiveFields })
        if (sensitive || options.holdsRunSecret?.(current) || holdsUrlPassword(current)) {
          // A value quoting a secret in a form the configuration writes otherwise (a time of day
          // as HH:MM:SS quoting a password "02:00"): a variable holding it as the service does
          // would not validate, so it is left out.
          if (!sensitive && !accepts(child, current)) {
            leaveOut(shown, 'it quotes a secret, in a form the configuration does not accept')
            if (required.includes(member)) return OMIT
            continue
          }
          secret(out, member, current, shown, required.includes(member))
          continue
        }
      }
      const mark = notes.length
      const result = walk(child, current, here, shown)
      const drop = result === OMIT || (!options.includeDefaults && !required.includes(member) && isDefault(child, result))
      if (drop) {
        const leftOut = notes.splice(mark).filter((note) => !note.written)
        // A part left out because a secret in it was: one note showing how to add the part.
        if (leftOut.length > 0) notes.push(...partNote(child, current, here, shown, leftOut))
        if (result === OMIT && required.includes(member)) return OMIT
        continue
      }
      out[member] = result
    }
    if (required.some((member) => !Object.hasOwn(out, member))) return OMIT
    return out
  }

  const list = (node: SchemaNode, value: unknown[], rule: string, display: string): Out => {
    const items = itemsNode(node)
    if (!items) return OMIT
    const ruleHere = ruleOf(rule)
    const key = ruleHere?.type === 'keyed' ? ruleHere.key : undefined
    const out: unknown[] = []
    if (key !== undefined) {
      // The configuration names each entry once; the service can hold two of one name, or one
      // named "" (edited by hand) where the configuration's key must not be empty.
      const seen = new Set<string>()
      const keyNode = memberNode(items, key)
      for (const item of value) {
        const name = isObject(item) && (typeof item[key] === 'string' || typeof item[key] === 'number') ? String(item[key]) : undefined
        if (name === undefined) continue
        if (name === '' && keyNode && !accepts(keyNode, '')) return leaveOut(display, `the service holds an entry with an empty ${key}, which a configuration cannot declare`)
        if (seen.has(name)) return leaveOut(display, `the service holds more than one entry of the ${key} ${holdsSecret(name) ? '(sensitive)' : JSON.stringify(name)}, which a configuration cannot declare`)
        seen.add(name)
      }
    }
    const keyOf = (item: unknown) => (key !== undefined && isObject(item) && (typeof item[key] === 'string' || typeof item[key] === 'number') ? String(item[key]) : undefined)
    // The keys that name their items, which an item named by its index must not take: one place
    // for two items would give their secrets one variable.
    let clearKeys: Set<string> | undefined
    let omitted = false
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      const named = keyOf(item)
      // A key holding a secret (a header named after a URL's password) names the item by its
      // index: the place's text becomes a variable's name, upper-cased, which no redaction finds.
      let itemKey = named === undefined || holdsSecret(named) ? String(i) : named
      if (itemKey !== named) {
        clearKeys ??= new Set(value.map(keyOf).filter((k): k is string => k !== undefined && !holdsSecret(k)))
        while (clearKeys.has(itemKey)) itemKey = `#${itemKey}`
      }
      const result = walk(items, item, rule, `${display}[${itemKey}]`)
      // A list is compared whole (as a set): one item that cannot be written leaves the list out;
      // the rest are still walked, so that the note on the list names every secret it holds.
      if (result === OMIT) omitted = true
      else out.push(result)
    }
    if (omitted) return OMIT
    // What the kind compares as a set is written sorted, each member once.
    const asSet = ruleHere?.type === 'set' || (ruleHere?.type === 'keyed' && ruleHere.display === 'whole')
    const written = asSet ? uniqueBy(out.sort(byKey(key)), key) : out
    const shorthand = shorthandMember(items)
    if (!shorthand) return written
    return written.map((item) => (isObject(item) && Object.keys(item).length === 1 && typeof item[shorthand] === 'string' ? item[shorthand] : item))
  }

  const walk = (node: SchemaNode, value: unknown, rule: string, display: string): Out => {
    if (value === null || value === undefined) return value === null && allowsNull(node) ? null : OMIT
    // A reference the service answered by its name alone (the kind's projection made it `{name}`):
    // written by that name, as the configuration may refer (the request's `{id}` has none to write).
    if (isObject(value) && value.id === undefined && typeof value.name === 'string' && Object.hasOwn(kind.references ?? {}, rule)) {
      return holdsSecret(value.name) ? leaveOut(display, `the service answers this reference by its name alone, which quotes a secret`) : { name: value.name }
    }
    if (isObjectNode(node) && isObject(value)) return object(node, value, rule, display, false)
    if (isArrayNode(node) && Array.isArray(value)) return list(node, value, rule, display)
    if (isObject(value) || Array.isArray(value)) return OMIT
    if (typeof value === 'string' && (options.holdsRunSecret?.(value) || holdsUrlPassword(value))) {
      // A list item holding a secret (a blacklist entry with a URL's password) is one as a member
      // is (secret()): a reference, or left out, its list with it, with a note saying how to add
      // it; its URL's password is a secret of the run, or another text quoting it (the
      // description "pw is …") would be written in clear.
      const item: JsonObject = {}
      secret(item, 'value', value, display, true)
      return Object.hasOwn(item, 'value') ? item.value : OMIT
    }
    if (accepts(node, value)) return value
    // A form the service writes differently (HH:MM:SS for HH:MM): the kind's normalizer maps it.
    const ruleHere = ruleOf(rule)
    const normalize = ruleHere?.type === 'scalar' ? ruleHere.normalize : undefined
    const normalized = normalize?.(value)
    if (normalize && accepts(node, normalized)) return normalized
    // An empty text is how the service answers a field it has no value for: nothing to say.
    if (value === '') return OMIT
    return leaveOut(display, `the service holds ${describeValue(value)}, which the configuration does not accept here`)
  }

  /** The note for a part left out with the secrets in it, showing the part with references. */
  const partNote = (node: SchemaNode, value: unknown, rule: string, display: string, inner: SecretNote[]): SecretNote[] => {
    if (forNote) return inner
    const mark = notes.length
    forNote = true
    let part: Out
    try {
      part = walk(node, value, rule, display)
    } finally {
      forNote = false
      notes.length = mark
    }
    if (part === OMIT) return inner
    return [{ kind: kind.name, id, field: display, variable: inner.map((n) => n.variable).join(', '), hidden: inner.some((n) => n.hidden), written: false, part, holds: inner.map((n) => n.field) }]
  }

  const fields = object(rootNode(kind.requestSchema), live, '', '', true) as JsonObject
  return { id, fields, notes, secretValues, leftOut }
}

/** A value as a reason names it: short ones quoted, long ones by their length. */
function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length <= 40 ? text : `a value of ${text.length} characters`
}
