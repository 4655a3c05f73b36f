/**
 * The one redaction step. Every byte scansync writes (stdout, stderr, a saved plan, the secrets
 * state, imported YAML) passes through `Redaction.output` or `Redaction.file`, on the whole text,
 * and every text taken from the service passes through `redact` before it is folded or shortened.
 * It learns the API token and the secret values as they become known (`add`).
 */

import { SENSITIVE } from './types.js'
import { maskUrlPasswords } from './url.js'
import { printable } from './printable.js'

export { SENSITIVE }
/** What the API token prints as. */
export const TOKEN_PLACEHOLDER = '(redacted)'

/**
 * Shorter secrets are not substituted inside a text: replacing them would blank out ordinary
 * words and show where the secret was ("the (sensitive) failed"). A text that may hold one is
 * withheld instead (see `withholds`).
 */
export const MIN_SUBSTITUTED_LENGTH = 6

/**
 * Words that a service's message may hold for reasons of its own, so that substituting a secret
 * equal to one would reveal it. Only words of MIN_SUBSTITUTED_LENGTH letters or more matter. The
 * last lines are scansync's own words (its summaries, reports and annotations; import's lines and
 * files' comments, `Set these environment variables…`; the creation-lock wait's refusal): a secret
 * equal to one, in any letter case, would rewrite its lines (`Plan: 0 to change, 3 (sensitive).`).
 */
const COMMON_WORDS = new Set(
  `
about above accept access account action active actual address admin administrator advanced after again against agent allowed
already always amount another answer anything around assets attempt author authorization available backup basic because become
before behind being below better between bucket buffer button called cannot change changed changeme changes channel character
check client closed common company config configuration connect connection contact content context cookie country course create
created credential credentials current customer database default delete denied description detail details device different
direct disabled domain during either empty enable enabled engine enough entered entries entry environment error errors example
expected expired failed failure feature field fields figure follow following forbidden format found friend further general
github gitlab global google group header headers hello hidden history holder import include incorrect index information input
inside instance instead internal invalid issue itself length letmein library limit linux little local localhost location login
manager master member message method minute missing mobile modified module monkey moment mother network never nobody normal
nothing notice number object office online option options order other others output owner package parameter parent password
passw0rd passwords people period permission person personal phone please policy possible private problem process product
profile program project provide public qwerty question really reason record region register related remote report request
required reset resource resources response result return right sample scanner scansync schedule schema school search second
secret secrets section secure security select sensitive server service session setting settings should shadow simple single
source special staging standard start status string strong submit summer sunshine superuser support system target targets
template temporary tested testing thanks there these thing things think those thought through ticket together token toggle
trustno1 unknown update updated upload username users using valid validation value values version welcome window windows
winter within without worker world would written wrong yellow
answered applied column comment declare declared declares differ differs drifted flight heading interrupted listed
locally messages outcome planned policies production refused review skipped stale summary tracked unchanged
unmanaged untracked violation violations warning warnings whitelist withheld
creating editor install language refers repository variables waited
`
    .split(/\s+/)
    .filter((word) => word.length >= MIN_SUBSTITUTED_LENGTH),
)

/** Too short or too common to substitute safely: texts that may hold it are withheld instead. */
export function isWeakSecret(secret: string): boolean {
  return secret.length < MIN_SUBSTITUTED_LENGTH || COMMON_WORDS.has(secret.toLowerCase())
}

/**
 * The ways a secret can be written in a text: as it is; inside a JSON string (escaped once, as a
 * service quoting a field writes it, or twice, as one quoting the raw request body does; with or
 * without \u escapes); URL-encoded; as scansync prints it (core/printable.ts).
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
  // As scansync prints a text (a name, a path) or a quoted value: format characters (a joiner in
  // an emoji, a zero-width non-joiner in Persian) and controls written `\uXXXX`, the rest as it is.
  const printed = printable(once)
  return [...new Set([secret, once, json(once), ascii, json(ascii), url, printable(secret), printed, json(printed)])]
}

// C0 and C1 controls, DEL, NUL, the Unicode line separators, and the bidirectional marks and
// overrides that could rearrange or hide text on a terminal or in a browser ("Trojan source").
// Line feeds and tabs are layout; ESC is kept only as the start of the terminal sequences
// scansync itself writes (colours, and the progress bar's cursor moves), matched by OWN_SEQUENCE.
const UNSAFE = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
const OWN_SEQUENCE = /\u001b(?:\[[0-9;]*m|\[\?(?:25|7)[hl]|\[[0-2]?K|\[[0-9]*G|\[0?J|[78])/y
const ESCAPE_CHAR = '\u001b'

const escapeChar = (c: string) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')

/** Control characters as `\uXXXX` (line feeds, tabs and scansync's own terminal sequences kept). */
export function escapeControls(text: string): string {
  const out = text.replace(UNSAFE, escapeChar)
  if (!out.includes(ESCAPE_CHAR)) return out
  let result = ''
  let last = 0
  for (let i = out.indexOf(ESCAPE_CHAR); i !== -1; i = out.indexOf(ESCAPE_CHAR, i)) {
    OWN_SEQUENCE.lastIndex = i
    const own = OWN_SEQUENCE.exec(out)
    if (own) i += own[0].length
    else {
      result += out.slice(last, i) + escapeChar(ESCAPE_CHAR)
      last = ++i
    }
  }
  return result + out.slice(last)
}

/**
 * A GitHub runner takes `##[name]data` anywhere in a line a step prints for a workflow command
 * (`##[stop-commands]…`, `##[add-mask]…`, `##[group]…`), besides `::name::` at a line's start
 * after its leading white space, which the runner trims (actions/runner, ActionCommand.TryParseV2).
 * The line structure of every format keeps a line starting with `::` to scansync's own annotations,
 * at the very start of a line; a value's own line (import's multi-line YAML scalars) is indented.
 * scansync writes no such command: in a value the `[` of `##[`, and the first `:` of an indented
 * line's `::`, are written `\u005b` and `\u003a`, which a quoted value and JSON read back as the
 * same characters.
 */
function legacyCommandsEscaped(text: string): string {
  if (!text.includes('##[') && !INDENTED_COMMAND.test(text)) return text
  const escaped = (part: string) => part.replace(/##\[/g, '##\\u005b')
  return text
    .split('\n')
    .map((line) => {
      const own = OWN_ANNOTATION.exec(line)?.[0]
      return own === undefined ? escaped(line.replace(INDENTED_COMMAND_LINE, '$1\\u003a')) : own + escaped(line.slice(own.length))
    })
    .join('\n')
}

/** A line that reads as a workflow command once the runner trims its leading white space. */
const INDENTED_COMMAND_LINE = /^(\s+):(?=:)/
const INDENTED_COMMAND = /^[^\S\n]+::/m

/** Whether a value has a line (after its first) that would start with `::` once written on a line of its own (see legacyCommandsEscaped). */
export const hasCommandLine = (value: string): boolean => /\n\s*::/.test(value)

/**
 * The file of one of scansync's own annotations (render/github.ts workflowCommand, a property's
 * `,` and `:` written `%2C` and `%3A`), kept as it is, so that the annotation lands on that file:
 * the runner takes such a line for the annotation, never for the older form of a command.
 */
const OWN_ANNOTATION = /^::(?:error|warning|notice) file=[^,:\n]*/

/**
 * A secret as it is, lower-cased and upper-cased: a text may quote it in another case than it was
 * given, by our own doing (a URL parser lower-cases a host: a redirect to https://<token>.host/ is
 * named by its origin) or the service's (words upper-cased). Weak secrets are found in any case.
 */
const caseForms = (value: string): string[] => [...new Set([value, value.toLowerCase(), value.toUpperCase()])]

/** Past this many written forms, one scan of the text replaces them all (a map by prefix). */
const MANY_FORMS = 32

interface Form {
  text: string
  placeholder: string
}

/** Secret values and their written forms, replaced longest first. */
class FormSet {
  private readonly known = new Map<string, string>()
  private forms: Form[] | undefined
  private byPrefix: Map<string, Form[]> | undefined

  add(value: string, placeholder: string): void {
    if (this.known.get(value) === placeholder || (this.known.has(value) && placeholder !== TOKEN_PLACEHOLDER)) return
    this.known.set(value, placeholder)
    this.forms = undefined
    this.byPrefix = undefined
  }

  /** Whether a text holds a known form (the redaction's test, without building the redacted text). */
  holds(text: string): boolean {
    const forms = this.sortedForms()
    // Sorted longest first: a text shorter than the last form holds none.
    if (forms.length === 0 || text.length < forms[forms.length - 1]!.text.length) return false
    if (forms.length > MANY_FORMS) return this.scan(text) !== text
    for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!.text)) return true
    return false
  }

  redact(text: string): string {
    const forms = this.sortedForms()
    if (forms.length === 0 || text === '') return text
    if (forms.length <= MANY_FORMS) {
      let out = text
      for (const form of forms) if (out.includes(form.text)) out = out.split(form.text).join(form.placeholder)
      return out
    }
    return this.scan(text)
  }

  private sortedForms(): Form[] {
    if (!this.forms) {
      const byText = new Map<string, string>()
      for (const [value, placeholder] of this.known) for (const form of caseForms(value).flatMap(writtenForms)) if (!byText.has(form) || placeholder === TOKEN_PLACEHOLDER) byText.set(form, placeholder)
      this.forms = [...byText].map(([text, placeholder]) => ({ text, placeholder })).sort((a, b) => b.text.length - a.text.length)
    }
    return this.forms
  }

  /** One pass over the text: linear in its length, whatever the number of secrets. */
  private scan(text: string): string {
    const width = MIN_SUBSTITUTED_LENGTH
    if (!this.byPrefix) {
      this.byPrefix = new Map()
      for (const form of this.sortedForms()) {
        const prefix = form.text.slice(0, width)
        const list = this.byPrefix.get(prefix)
        if (list) list.push(form)
        else this.byPrefix.set(prefix, [form])
      }
    }
    const byPrefix = this.byPrefix
    let out = ''
    let last = 0
    for (let i = 0; i + width <= text.length; ) {
      const candidates = byPrefix.get(text.slice(i, i + width))
      const match = candidates?.find((form) => text.startsWith(form.text, i))
      if (match) {
        out += text.slice(last, i) + match.placeholder
        i += match.text.length
        last = i
      } else i++
    }
    return last === 0 ? text : out + text.slice(last)
  }
}

export interface AddOptions {
  /** What the value prints as (SENSITIVE unless given). */
  placeholder?: string
  /**
   * False for a value the configuration itself writes (the fallback of `${VAR:-value}`): hidden
   * on stdout and stderr, but a file that copies the configuration (a saved plan) may hold it.
   */
  inFiles?: boolean
}

/**
 * The weak secrets' written forms as a lower-cased text holds them: the forms of the secret in lower
 * case, and those of the secret as it is, lower-cased (its URL and `\u` escapes are written from
 * its own case: `a/b` is `a%2Fb`, `Été` is `\u00c9t\u00e9`).
 */
function weakFormsOf(secrets: Iterable<string>): WeakForms {
  const list = [...new Set([...secrets].flatMap((secret) => [...writtenForms(secret.toLowerCase()), ...writtenForms(secret).map((form) => form.toLowerCase())]))]
  const byLength = new Map<number, Set<string>>()
  for (const form of list) {
    const set = byLength.get(form.length)
    if (set) set.add(form)
    else byLength.set(form.length, new Set([form]))
  }
  return { list, byLength }
}

/** Up to this many forms, each is looked for in a text; beyond, the text's substrings are looked up. */
const FEW_WEAK_FORMS = 32

/** The weak secrets' forms, as a list and by their length. */
interface WeakForms {
  list: string[]
  byLength: Map<number, Set<string>>
}

export class Redaction {
  private readonly everywhere = new FormSet()
  private readonly outputOnly = new FormSet()
  private readonly weak = new Set<string>()
  /** The weak secrets' written forms in lower case, worked out once for the secrets known (mentionsWeak). */
  private weakForms: WeakForms | undefined

  constructor(token?: string) {
    if (token) this.add([token], TOKEN_PLACEHOLDER)
  }

  /** Learns secret values (the API token with TOKEN_PLACEHOLDER); empty values are ignored. */
  add(values: Iterable<string>, options: AddOptions | string = {}): void {
    const { placeholder = SENSITIVE, inFiles = true } = typeof options === 'string' ? { placeholder: options } : options
    for (const value of values) {
      if (typeof value !== 'string' || value === '') continue
      if (isWeakSecret(value)) {
        if (!this.weak.has(value)) this.weakForms = undefined
        this.weak.add(value)
      } else (inFiles ? this.everywhere : this.outputOnly).add(value, placeholder)
    }
  }

  /**
   * True when a secret too short or too common to substitute is known: every text the service
   * wrote is then withheld (replaced by its status and field names), whatever request it answered,
   * since a service may quote any stored value in any answer.
   */
  withholds(): boolean {
    return this.weak.size > 0
  }

  /** True when `text` holds a weak secret (any case): such a text is left out whole. */
  mentionsWeak(text: string): boolean {
    const forms = (this.weakForms ??= weakFormsOf(this.weak))
    const lower = text.toLowerCase()
    // A few forms: each looked for in the text. More (a short password per target): each of the
    // text's substrings of a form's length looked up, in steps that grow with the text and the
    // forms' lengths, never with their number (a text anyone can type may be long and repetitive).
    if (forms.list.length <= FEW_WEAK_FORMS) {
      for (const form of forms.list) if (lower.includes(form)) return true
      return false
    }
    for (const [length, set] of forms.byLength) for (let i = 0; i + length <= lower.length; i++) if (set.has(lower.slice(i, i + length))) return true
    return false
  }

  /** Whether a text holds a known secret in any written form (a weak one in any case). */
  readonly holds = (text: string): boolean => this.everywhere.holds(text) || this.outputOnly.holds(text) || (this.weak.size > 0 && this.mentionsWeak(text))

  /** Each known secret, in each written form, replaced by its placeholder (longest first). */
  readonly redact = (text: string): string => this.outputOnly.redact(this.everywhere.redact(text))

  /**
   * A text for stdout or stderr: redacted, each URL's password hidden (a URL the service holds or
   * the YAML writes, which a message may quote: no run learns every one), then its control
   * characters escaped, and the older form of a CI workflow command (legacyCommandsEscaped).
   */
  readonly output = (text: string): string => legacyCommandsEscaped(escapeControls(maskUrlPasswords(this.redact(text), SENSITIVE)))

  /** A file's text: redacted (a file keeps its own characters: JSON and YAML escape them). */
  readonly file = (text: string): string => this.everywhere.redact(text)
}

/** The run's redaction as its environment sets it: the API token and the state key, as secret as each other (the key signs saved plans and keys the state's HMACs). */
export function redactionFor(env: Readonly<Record<string, string | undefined>>): Redaction {
  const redaction = new Redaction(env.SCANSYNC_API_TOKEN)
  if (env.SCANSYNC_STATE_KEY) redaction.add([env.SCANSYNC_STATE_KEY], TOKEN_PLACEHOLDER)
  return redaction
}
