import { formatPath } from '../core/diagnostics.js'
import { SENSITIVE } from './model.js'
import { HIDDEN_KEY_LENGTH } from '../secrets/state.js'

/**
 * The one notation for a place inside a resource's fields while it is compared: a list of
 * steps, each a member name or a list item. Every other form is made from it at the edge: the
 * rule path the kinds name their rules by (`site.headers.value`), the display path plans and
 * the secrets state use (`site.headers[Authorization].value`), and the YAML place of templates
 * and positions (`site.headers[0].value`).
 */
export type FieldPath = readonly Step[]

export type Step = string | ItemStep

/** A list item: its index in the YAML (none for an item only the service holds) and its key. */
export interface ItemStep {
  index?: number
  key: string
  /** The key came from a variable: it prints as (sensitive). */
  hiddenKey?: boolean
}

export const isItem = (step: Step): step is ItemStep => typeof step !== 'string'

export const memberOf = (path: FieldPath, name: string): FieldPath => [...path, name]

export const itemOf = (path: FieldPath, item: ItemStep): FieldPath => [...path, item]

/** The last member name on the path (`value` for `site.headers[A].value`); '' for a list item. */
export const lastMember = (path: FieldPath): string => {
  const last = path.at(-1)
  return typeof last === 'string' ? last : ''
}

/** `site.headers.value`: members only, as kinds name their rules and send units. */
export const rulePath = (path: FieldPath): string => {
  // A loop, not filter and join: this is asked several times for every place compared.
  let rule = ''
  for (const step of path) if (typeof step === 'string') rule = rule === '' ? step : `${rule}.${step}`
  return rule
}

/** `site.headers[Authorization].value`, a key from a variable as `[(sensitive)]`. */
export function displayPath(path: FieldPath): string {
  let out = ''
  for (const step of path) {
    if (isItem(step)) out += `[${step.hiddenKey ? SENSITIVE : step.key}]`
    else out += out === '' ? step : `.${step}`
  }
  return out
}

/**
 * The key of a place in the secrets state: its display path, with a key from a variable written
 * as its keyed hash (`[#3f9a…]`) rather than `(sensitive)`, so that two entries named by
 * variables keep two records, and the file holds neither name. So is a key that holds a secret of
 * the run (`holds`): the output step every file passes through would write it `[pass-(sensitive)]`,
 * a record no run could find again; and a saved plan names such a key by its variable, so both
 * kinds of apply record it under the one hash.
 */
export function statePath(path: FieldPath, hmac: (value: string) => string, holds?: (text: string) => boolean): string {
  let out = ''
  for (const step of path) {
    if (isItem(step)) out += `[${step.hiddenKey || (holds !== undefined && holds(String(step.key))) ? `#${hmac(String(step.key)).slice(0, HIDDEN_KEY_LENGTH)}` : step.key}]`
    else out += out === '' ? step : `.${step}`
  }
  return out
}

/** The place in the YAML as segments, up to the first item the YAML does not hold (for positions). */
export function declaredSegments(path: FieldPath): Array<string | number> {
  const segments: Array<string | number> = []
  for (const step of path) {
    if (!isItem(step)) segments.push(step)
    else if (step.index === undefined) break
    else segments.push(step.index)
  }
  return segments
}

/** `site.headers[0].value`, as the loader keys templates; undefined for a place the YAML does not hold. */
export function yamlPlace(path: FieldPath): string | undefined {
  if (path.some((step) => isItem(step) && step.index === undefined)) return undefined
  return formatPath(declaredSegments(path))
}
