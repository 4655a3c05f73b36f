import { SENSITIVE, type DesiredResource } from '../core/types.js'
import { variableValues } from '../config/interpolate.js'
import { isObject } from '../core/json.js'

const ALWAYS_SENSITIVE = new Set(['otp_secret'])

export interface DeclaredSecret {
  value: string
  /** Dotted place inside the resource's fields, list indexes in brackets (`site.headers[0].value`). */
  place: string
  /** The same place as path segments (for `DesiredResource.locate`). */
  segments: Array<string | number>
  /** True when the value came from `${…}` (a saved plan keeps the reference). */
  fromVariable: boolean
}

/**
 * Every secret a declared resource holds: values from `${…}`, and values whose
 * `<field>_is_sensitive` flag is true (or that are always sensitive, like otp_secret).
 */
export function declaredSecrets(resource: DesiredResource): DeclaredSecret[] {
  const found: DeclaredSecret[] = []
  const visit = (node: unknown, index: string, segments: Array<string | number>) => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${index}[${i}]`, [...segments, i]))
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        const here = index ? `${index}.${key}` : key
        const fromVariable = resource.templates.has(here)
        if (typeof value === 'string' && (node[`${key}_is_sensitive`] === true || ALWAYS_SENSITIVE.has(key) || fromVariable)) {
          found.push({ value, place: here, segments: [...segments, key], fromVariable })
        } else visit(value, here, [...segments, key])
      }
    }
  }
  visit(resource.fields, '', [])
  return found
}

/**
 * Every secret value the configuration holds: values from `${…}`, and values whose
 * `<field>_is_sensitive` flag is true; and, in a value written around variables
 * (`Bearer ${API_KEY}`, a JSON payload holding `${CLIENT_SECRET}`), each variable's value by
 * itself: the service may quote it back on its own.
 */
export function secretValues(resources: DesiredResource[]): string[] {
  return [
    ...new Set(
      resources.flatMap((resource) =>
        declaredSecrets(resource).flatMap((secret) => {
          const template = secret.fromVariable ? resource.templates.get(secret.place) : undefined
          return template === undefined ? [secret.value] : [secret.value, ...variableValues(template, secret.value)]
        }),
      ),
    ),
  ]
}

/**
 * The ways a secret can be written in a text: as it is; inside a JSON string (escaped once, as a
 * service quoting a field writes it, or twice, as one quoting the raw request body does; with or
 * without \u escapes); URL-encoded.
 */
export function writtenForms(secret: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1)
  const once = json(secret)
  const ascii = once.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  let url = secret
  try {
    url = encodeURIComponent(secret)
  } catch {
    // A lone surrogate has no URL form.
  }
  return [...new Set([secret, once, json(once), ascii, json(ascii), url])]
}

/** Replaces each known secret (longest first), in each of its written forms, in a text with "(sensitive)". */
export function makeRedactor(secrets: Iterable<string>): (text: string) => string {
  // Very short values would blank out ordinary words; they are too weak to be worth hiding that way.
  const list = [...new Set([...new Set(secrets)].filter((s) => s.length >= 4).flatMap(writtenForms))].sort((a, b) => b.length - a.length)
  if (list.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(SENSITIVE)
    return out
  }
}
