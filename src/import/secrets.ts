import type { KindName } from '../core/types.js'
import { isWeakSecret } from '../core/redaction.js'
import { readSchema } from '../schema/files.js'
import { KINDS } from '../resources/index.js'

/** A sensitive field of an imported resource, and the environment variable that stands for it. */
export interface SecretNote {
  kind: KindName
  id: string
  /** The field as plans show it: `site.basic_auth.password`, `site.headers[Authorization].value`. */
  field: string
  variable: string
  /** The service answered OBFUSCATED_…: the value cannot be read back. */
  hidden: boolean
  /** Written as `${variable}`; false: left out (with --secrets omit, or an optional member the service hides). */
  written: boolean
  /**
   * A whole part left out because of the secrets in it (a list of headers, basic_auth): the
   * part as it would be written, with `${VARIABLE}` references, and the secret fields it holds.
   * `variable` then lists their variables, comma-separated.
   */
  part?: unknown
  holds?: string[]
}

/** A `${NAME}` reference written in place of a sensitive value. */
export class Reference {
  constructor(readonly variable: string) {}
  toString() {
    return `\${${this.variable}}`
  }
}

/**
 * Variable names: KIND_ID_FIELD upper-cased, every run of other characters than A-Z and 0-9 an
 * underscore (`TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD`). Ids are case-sensitive, so two
 * resources can meet on one name: the later one (in output order) gets `_2`, `_3`, …
 */
export class VariableNamer {
  private readonly taken = new Set<string>()
  /** A field asked again (a resource selected a second time) keeps its name. */
  private readonly given = new Map<string, string>()

  name(kind: KindName, id: string, field: string): string {
    const key = `${kind}\0${id}\0${field}`
    const known = this.given.get(key)
    if (known !== undefined) return known
    const base = `${kind}_${id}_${field}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')
    let name = base
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`
    this.taken.add(name)
    this.given.set(key, name)
    return name
  }
}


let words: string[] | undefined
/** The words a written configuration is made of besides live values: its keys (every member the schemas name) and lists, lower-cased. */
function configurationWords(): string[] {
  if (!words) {
    const found = new Set<string>(['id', ...Object.values(KINDS).map((kind) => kind.list)])
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit)
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'properties' && value !== null && typeof value === 'object') for (const member of Object.keys(value)) found.add(member.toLowerCase())
          visit(value)
        }
      }
    }
    visit(readSchema('config.schema.json'))
    visit(readSchema('common.schema.json'))
    words = [...found]
  }
  return words
}

/**
 * Whether a secret, in some letter case, is part of a key the configuration writes (a basic-auth
 * password `Whitelist`, `Timezone`, `Blackout`): the output step replaces a secret in every case
 * (core/redaction.ts, caseForms), so it rewrote the file's keys (`(sensitive): [a.example.com]`)
 * and the variables' names built from them, and the import did not validate. Such a secret is
 * kept out of the output step's redaction and only checked for in the values import writes,
 * which are its own (a key is the schema's word, not the service's secret).
 */
export function isConfigurationWord(secret: string): boolean {
  // A weak secret is never replaced (texts holding it are withheld instead): it stays taught.
  if (isWeakSecret(secret)) return false
  const lower = secret.toLowerCase()
  if (configurationWords().some((word) => word.includes(lower))) return true
  // Across keys: a variable's name joins a field's keys with `_` (TARGET_…_SITE_BASIC_AUTH_PASSWORD)
  // and a printed field joins them with `.` and `[…]`, so a secret `Auth_Password` or
  // `Login_Password` is no key's part yet rewrote `${TARGET_…_BASIC_(sensitive)}` (the import did
  // not validate). Such a secret: pieces of keys, its first the end of one, its last the start of one.
  const pieces = lower.split(/[_.[\]]+/)
  if (pieces.length < 2) return false
  const parts = keyPieces()
  const last = pieces.length - 1
  return pieces.every((piece, i) => (i === 0 ? parts.some((part) => part.endsWith(piece)) : i === last ? parts.some((part) => part.startsWith(piece)) : parts.includes(piece)))
}

let pieces: string[] | undefined
/** The pieces the configuration's keys are made of (`basic_auth`: basic, auth), and the kinds' names a variable starts with. */
function keyPieces(): string[] {
  pieces ??= [...new Set([...configurationWords().flatMap((word) => word.split('_')), ...Object.keys(KINDS)])].filter((piece) => piece !== '')
  return pieces
}
