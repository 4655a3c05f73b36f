/**
 * `${NAME}` is replaced by the environment variable NAME, `${NAME:-fallback}` uses the fallback
 * when NAME is unset or empty, and `$${` writes a literal `${`.
 */
const TOKEN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{[^}]*\}?/g

import type { Env } from '../core/types.js'

export type { Env }

export interface InterpolationResult {
  value: string
  /** True when any part of the value came from a variable (the value is then sensitive). */
  fromVariable: boolean
  /** Problems, such as a variable that is not set; the value is then unusable. */
  errors: string[]
}

/**
 * scansync's own variables (SCANSYNC_API_TOKEN, SCANSYNC_STATE_KEY, …): never expanded. In any
 * case, as Windows looks variables up without regard to it.
 */
const OWN_PREFIX = /^SCANSYNC_/i

/** Whether a variable's value is the credential, or holds it (`Bearer <token>`; a credential of 8 characters or more). */
const holdsCredential = (value: string, credential: string | undefined): boolean =>
  credential !== undefined && credential !== '' && (value === credential || (credential.length >= 8 && value.includes(credential)))

export const hasTemplate = (text: string): boolean => text.includes('${')

/**
 * False when no value read from this YAML text can hold `${`: the text has no `${`, no escape
 * that writes a `$` or a `{` (`\x24`, `\u0024`, `\U00000024`, `\x7b`, …) and no `$` before an
 * escaped line break (`"$\` at the end of a line joins the next line without a space). Then
 * resolving variables has nothing to do.
 */
export const mayHoldTemplate = (yamlText: string): boolean =>
  yamlText.includes('${') || (yamlText.includes('\\') && /\\(?:x24|u0024|U00000024|x7[bB]|u007[bB]|U0000007[bB])|\$\\\r?\n/.test(yamlText))

export function interpolate(template: string, env: Env): InterpolationResult {
  let fromVariable = false
  const errors: string[] = []
  const value = template.replace(TOKEN, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${'
    if (name === undefined) {
      errors.push(`malformed variable reference ${JSON.stringify(match)}: write \${NAME} or \${NAME:-fallback}, or $\${ for a literal \${`)
      return ''
    }
    if (fallback?.includes('${')) {
      errors.push(`the fallback of \${${name}:-…} holds another \${…}; a fallback is plain text`)
      return ''
    }
    fromVariable = true
    // The token, the state key and the rest of scansync's own settings: a configuration that could
    // name them could send the token to the service, or in a header to whatever site a target scans.
    if (OWN_PREFIX.test(name)) {
      errors.push(`\${${name}} is one of scansync's own variables, which are never expanded in a configuration (they hold its token and settings)`)
      return ''
    }
    // Only the environment's own entries: `${constructor}` or `${toString}` is a variable like any
    // other, never a member every object inherits.
    const set = Object.hasOwn(env, name) ? env[name] : undefined
    if (set !== undefined && set !== '' && (holdsCredential(set, env.SCANSYNC_API_TOKEN) || holdsCredential(set, env.SCANSYNC_STATE_KEY))) {
      errors.push(`environment variable ${name} holds scansync's token or state key, which a configuration never sends to the service`)
      return ''
    }
    // A line of a `.env` file saved on Windows (CRLF) keeps its `\r` when the file is exported
    // (`set -a; . ./.env`, `export $(cat .env | xargs)`): the value sent would end in it, unseen.
    if (set !== undefined && /\r\n?$/.test(set)) {
      errors.push(`environment variable ${name} ends with a carriage return (\\r), as a line of a file saved with Windows line ends (CRLF) does: set it without it (save the .env file with LF line ends, or strip the \\r where it is exported)`)
      return ''
    }
    if (set !== undefined && set !== '') return set
    if (fallback !== undefined) return fallback
    // Said as it is: an empty value is usually a CI secret that is defined but not filled in.
    if (set === '') errors.push(`environment variable ${name} is empty (referenced here; set it to the value, or write \${${name}:-fallback})`)
    else errors.push(`environment variable ${name} is not set (referenced here; set it, or write \${${name}:-fallback})`)
    return ''
  })
  return { value, fromVariable, errors }
}

/**
 * The inverse of interpolation for a literal: a value that must survive interpolation unchanged.
 * (split/join, not replaceAll: in a replacement string `$$` stands for one `$`.)
 */
export const escapeTemplate = (literal: string): string => literal.split('${').join('$${')

/**
 * The parts of `value` (the result of interpolating `template`) that came from variables: each
 * is a secret by itself, wherever it turns up (inside a JSON payload the service quotes back, say).
 * Each part runs to the first occurrence of the text that follows it in the template (adjacent
 * variables come out as one part): one pass, no backtracking, whatever the template.
 */
export function variableValues(template: string, value: string): string[] {
  // The template as literal texts with a variable between each two.
  const literals = ['']
  for (const [i, piece] of template.split(TOKEN_SPLIT).entries()) {
    if (i % 2 === 0) literals[literals.length - 1] += piece
    else if (piece === '$${') literals[literals.length - 1] += '${'
    else if (/^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/.test(piece)) literals.push('')
  }
  if (literals.length === 1 || !value.startsWith(literals[0])) return []
  const parts: string[] = []
  let at = literals[0].length
  for (let i = 1; i < literals.length; i++) {
    const last = i === literals.length - 1
    const end = last ? value.length - literals[i].length : literals[i] === '' ? at : value.indexOf(literals[i], at)
    if (end < at) return parts
    parts.push(value.slice(at, end))
    at = end + literals[i].length
  }
  return parts.filter((part) => part !== '')
}

/** TOKEN as a separator: split() keeps each reference (and each `$${`) between the texts. */
const TOKEN_SPLIT = /(\$\$\{|\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}|\$\{[^}]*\}?)/
