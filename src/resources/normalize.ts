/**
 * Normalizers: the service writes some values in another form than the YAML does. Both sides of
 * a comparison pass through the same normalizer, so a value the server rewrites never shows as a
 * change.
 */
import { comparableUrl } from '../core/url.js'

export type Normalizer = (value: unknown) => unknown

/** Scheme and host lower-cased, default port dropped, empty path written "/". */
export const url: Normalizer = (value) => (typeof value === 'string' ? comparableUrl(value) : value)

/** HH:MM:SS with zero seconds equals HH:MM. */
export const time: Normalizer = (value) =>
  typeof value === 'string' && /^\d{2}:\d{2}:00(\.0+)?$/.test(value) ? value.slice(0, 5) : value

/**
 * Colours: #D93F0B and #d93f0b are the same colour; "" and none (null, absent) are the same
 * (output labels drop an empty colour, so a declared `color: ""` must equal no colour).
 */
export const color: Normalizer = (value) => (value === null || value === undefined ? '' : typeof value === 'string' ? value.toLowerCase() : value)

/** null and "" are the same for nullable text. */
export const nullableText: Normalizer = (value) => (value === null || value === undefined ? '' : value)

/** A URL that may be null: null and "" are the same, and a URL compares as `url` does. */
export const nullableUrl: Normalizer = (value) => url(nullableText(value))

/** null and false are the same where the document says "false or null". */
export const nullableFalse: Normalizer = (value) => (value === null || value === undefined ? false : value)

/** A list the service may answer null for is an empty list. */
export const nullableList = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** A reference the service may answer as an object or as its id: its id. */
export const idOf = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value

/** Output labels (with id, changed, changed_by) in their input form: name, and colour when set. */
export const labelInputs = (labels: unknown): Array<{ name: unknown; color?: unknown }> =>
  nullableList(labels)
    .filter((label): label is Record<string, unknown> => label !== null && typeof label === 'object')
    .map((label) => (label.color === null || label.color === undefined || label.color === '' ? { name: label.name } : { name: label.name, color: label.color }))
