import type { DesiredResource } from '../config/types.js'
import { isObject } from '../resources/paths.js'
import { SENSITIVE } from '../plan/model.js'

const ALWAYS_SENSITIVE = new Set(['otp_secret'])

/**
 * Every secret value the configuration holds: values from `${…}`, and values whose
 * `<field>_is_sensitive` flag is true.
 */
export function secretValues(resources: DesiredResource[]): string[] {
  const values = new Set<string>()
  for (const resource of resources) {
    const visit = (node: unknown, index: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${index}[${i}]`))
      else if (isObject(node)) {
        for (const [key, value] of Object.entries(node)) {
          const here = index ? `${index}.${key}` : key
          if (typeof value === 'string' && (node[`${key}_is_sensitive`] === true || ALWAYS_SENSITIVE.has(key) || resource.templates.has(here))) values.add(value)
          else visit(value, here)
        }
      }
    }
    visit(resource.fields, '')
  }
  return [...values]
}

/** Replaces each known secret (longest first) in a text with "(sensitive)". */
export function makeRedactor(secrets: Iterable<string>): (text: string) => string {
  // Very short values would blank out ordinary words; they are too weak to be worth hiding that way.
  const list = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)
  if (list.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(SENSITIVE)
    return out
  }
}
