/**
 * Text patterns that send a file to the `yaml` path (see fast-yaml.ts). Each may match more than it
 * must (a `&` after a space inside a plain scalar, say); none may miss what it is there for.
 *
 * The patterns are the definition. Run as one alternation over a whole file they cost more than a
 * tenth of loading it (most alternatives can start at any character, so the engine tries each at
 * every position); `needsPrecise` answers the same question by looking only where the rare
 * character each pattern needs occurs (test/config/precise-only.test.ts checks the two agree).
 */
import { BRACE_CLOSE, BRACE_OPEN, COLON, COMMA, CR, HASH, LF, MINUS, PLUS, SPACE, TAB } from './char-codes.js'

export const PRECISE_ONLY = {
  /** Anchors (`&a`), aliases (`*a`) and tags (`!t`, `!!str`): wherever a node may start. */
  anchorAliasOrTag: /(?:^|[\s[\]{},:?-])[&*!]/m,
  /**
   * A merge key (`<<: *a`, `<<: {…}`): the `yaml` path merges it and locates merged values where
   * they are written. (An anchor and alias usually come with it and send the file there anyway.)
   */
  mergeKey: /(?:^|[\s{,[?])<<[ \t]*:/m,
  /** A directive (`%YAML 1.1` would change the schema). */
  directive: /^%/m,
  /** `---x` or `...x` (a plain scalar to `yaml`, a marker to js-yaml), or content on the `---` line. */
  documentMarker: /^(?:---|\.\.\.)(?:\S|[ \t]+[^\s#])/m,
  /** An explicit key (`? key`). */
  explicitKey: /(?:^|[\s{,[])\?(?:\s|$)/m,
  /** A flow collection used as a key (`[a, b]: c`, `{a: 1}: c`, `{[a]}`). */
  collectionKey: /[\]}][ \t]*:|[{,]\s*\[/,
  /**
   * A null or empty key (`~:`, `null:`, `: x`, `{null}`): `yaml` names it "", js-yaml "null".
   * The spaces before the colon belong to the null word only: without one, the character before
   * the colon is itself a space or a start. (`[ \t]*:` after every space made a long run of
   * spaces cost time quadratic in its length: a hang on a hostile file.)
   */
  nullKey: /(?:^|[\s{,[?])(?:(?:~|null|Null|NULL)[ \t]*)?:(?=[\s,[\]{}]|$)|[{,]\s*(?:~|null|Null|NULL)\s*[,}]/m,
  /** A tab in the indentation of a line (an error to `yaml`, accepted by js-yaml). */
  tabIndent: /^[ \t]*\t/m,
  /** A carriage return that does not end a CRLF line break. */
  loneCarriageReturn: /\r(?!\n)/,
  /** An empty list entry (`-` and nothing after it on its line): js-yaml can nest the next entry. */
  emptyListEntry: /(?:^|[ \t])-[ \t]*(?:[ \t]#.*)?\r?$/m,
  /** A block scalar with an indentation indicator or keep chomping (`|2`, `>+`): trailing lines differ. */
  blockScalarIndicator: /[|>][-+]?[0-9+]/,
  /** A block scalar whose first lines are blank (`yaml` may ask for an indentation indicator). */
  blockScalarLeadingBlank: /[|>][-+0-9]*[ \t]*(?:#.*)?\r?\n[ \t]*\r?\n/,
  /** `\U` not followed by a code point up to U+10FFFF: js-yaml makes broken text of `\U00110000`, `yaml` refuses it. */
  longEscape: /\\U(?!00(?:0[0-9A-Fa-f]|10)[0-9A-Fa-f]{4})/,
} as const satisfies Record<string, RegExp>

export type PreciseRule = keyof typeof PRECISE_ONLY

/** All the patterns as one: its first match names the rule a declined file is reported under. */
export const PRECISE_PATTERN = new RegExp(
  Object.values(PRECISE_ONLY)
    .map((pattern) => `(?:${pattern.source})`)
    .join('|'),
  'm',
)

/** What `\s` matches. (charCodeAt past either end gives NaN, which is none of these.) */
function isSpace(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= TAB && c <= CR)
  if (c < 0xa0) return false
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** Where `^` and `$` match with the `m` flag: next to one of these. */
const isLineBreak = (c: number): boolean => c === LF || c === CR || c === 0x2028 || c === 0x2029

/** A lookup for a few ASCII characters. */
function charSet(chars: string): (c: number) => boolean {
  const table = new Uint8Array(128)
  for (const char of chars) table[char.charCodeAt(0)] = 1
  return (c) => c < 128 && table[c] === 1
}

const isPropertyLead = charSet('[]{},:?-')
const isKeyLead = charSet('{,[?')
const isExplicitLead = charSet('{,[')
const isIndicatorDigit = charSet('0123456789+')
const isBlockHeader = charSet('-+0123456789')

/** Whether `test` holds at some place where `needle` occurs. */
function someWhere(text: string, needle: string, test: (at: number) => boolean): boolean {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) if (test(at)) return true
  return false
}

/** The offset past the spaces and tabs from `at`. */
function pastBlanks(text: string, at: number): number {
  let c = text.charCodeAt(at)
  while (c === SPACE || c === TAB) c = text.charCodeAt(++at)
  return at
}

/** The offset past the `\s` characters from `at`. */
function pastSpaces(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at++
  return at
}

/** The offset past a line break (`\r?\n`) at `at`, or -1. */
function pastLineFeed(text: string, at: number): number {
  if (text.charCodeAt(at) === CR) at++
  return text.charCodeAt(at) === LF ? at + 1 : -1
}

const atLineStart = (text: string, at: number) => at === 0 || isLineBreak(text.charCodeAt(at - 1))

// Colons and dashes are common (every key has one, every list item the other): the rules that
// look at each are patterns that start with that character, which the regular expression engine
// finds quickly. (Loops over them in JavaScript are faster once optimized, but a load runs them
// once per file, mostly before V8 has optimized them.)

/** nullKey's first half, matched from its colon. */
const EMPTY_OR_NULL_KEY = /:(?<=(?:^|[\s{,[?])(?:(?:~|null|Null|NULL)[ \t]*)?:)(?=[\s,[\]{}]|$)/m
/** emptyListEntry, matched from its dash. */
const EMPTY_DASH = /-(?<=(?:^|[ \t])-)[ \t]*(?:[ \t]#.*)?\r?$/m

/** `]` or `}`, blanks, then a colon. */
function closedThenColon(text: string, closer: string): boolean {
  for (let at = text.indexOf(closer); at >= 0; at = text.indexOf(closer, at + 1)) if (text.charCodeAt(pastBlanks(text, at + 1)) === COLON) return true
  return false
}

/** A `[` after a `{` or `,` and spaces. */
function bracketAfterOpener(text: string): boolean {
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) {
    let before = at - 1
    while (isSpace(text.charCodeAt(before))) before--
    const c = text.charCodeAt(before)
    if (c === BRACE_OPEN || c === COMMA) return true
  }
  return false
}

/** A null word alone between a `{` or `,` and a `,` or `}` (spaces aside). */
function nullInFlow(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    let before = at - 1
    while (isSpace(text.charCodeAt(before))) before--
    const opener = text.charCodeAt(before)
    if (opener !== BRACE_OPEN && opener !== COMMA) continue
    const closer = text.charCodeAt(pastSpaces(text, at + word.length))
    if (closer === COMMA || closer === BRACE_CLOSE) return true
  }
  return false
}

/** Each rule of PRECISE_ONLY, answered by looking where the character it needs occurs. */
export const PRECISE_SCANS: { readonly [Rule in PreciseRule]: (text: string) => boolean } = {
  anchorAliasOrTag: (text) => {
    const test = (at: number) => at === 0 || isSpace(text.charCodeAt(at - 1)) || isPropertyLead(text.charCodeAt(at - 1))
    return someWhere(text, '&', test) || someWhere(text, '*', test) || someWhere(text, '!', test)
  },
  mergeKey: (text) =>
    someWhere(text, '<<', (at) => (at === 0 || isSpace(text.charCodeAt(at - 1)) || isKeyLead(text.charCodeAt(at - 1))) && text.charCodeAt(pastBlanks(text, at + 2)) === COLON),
  directive: (text) => someWhere(text, '%', (at) => atLineStart(text, at)),
  documentMarker: (text) => {
    const test = (at: number) => {
      if (!atLineStart(text, at)) return false
      const next = at + 3
      if (next < text.length && !isSpace(text.charCodeAt(next))) return true
      const content = pastBlanks(text, next)
      return content > next && content < text.length && !isSpace(text.charCodeAt(content)) && text.charCodeAt(content) !== HASH
    }
    return someWhere(text, '---', test) || someWhere(text, '...', test)
  },
  explicitKey: (text) =>
    someWhere(
      text,
      '?',
      (at) => (at === 0 || isSpace(text.charCodeAt(at - 1)) || isExplicitLead(text.charCodeAt(at - 1))) && (at + 1 === text.length || isSpace(text.charCodeAt(at + 1))),
    ),
  collectionKey: (text) => closedThenColon(text, ']') || closedThenColon(text, '}') || bracketAfterOpener(text),
  nullKey: (text) => EMPTY_OR_NULL_KEY.test(text) || nullInFlow(text, '~') || nullInFlow(text, 'null') || nullInFlow(text, 'Null') || nullInFlow(text, 'NULL'),
  tabIndent: (text) =>
    someWhere(text, '\t', (at) => {
      let start = at
      while (text.charCodeAt(start - 1) === SPACE) start--
      // A tab before this one was looked at first, and does not start its line: neither does this.
      // (Looking back over tabs, too, made a long run of them cost time quadratic in its length.)
      return atLineStart(text, start)
    }),
  loneCarriageReturn: (text) => someWhere(text, '\r', (at) => text.charCodeAt(at + 1) !== LF),
  emptyListEntry: (text) => EMPTY_DASH.test(text),
  blockScalarIndicator: (text) => {
    const test = (at: number) => {
      const next = text.charCodeAt(at + 1)
      return isIndicatorDigit(next) || ((next === MINUS || next === PLUS) && isIndicatorDigit(text.charCodeAt(at + 2)))
    }
    return someWhere(text, '|', test) || someWhere(text, '>', test)
  },
  blockScalarLeadingBlank: (text) => {
    // The comment last run through, to its line's end. A `|` or `>` whose comment starts inside it
    // ends at the same place, where nothing was found: running through it again for each `|` of
    // a comment full of them would cost time quadratic in its length.
    let commentFrom = -1
    let commentTo = -1
    const test = (at: number) => {
      let end = at + 1
      while (isBlockHeader(text.charCodeAt(end))) end++
      end = pastBlanks(text, end)
      if (text.charCodeAt(end) === HASH) {
        if (end >= commentFrom && end < commentTo) return false
        commentFrom = end
        while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++
        commentTo = end
      }
      end = pastLineFeed(text, end)
      return end >= 0 && pastLineFeed(text, pastBlanks(text, end)) >= 0
    }
    return someWhere(text, '|', test) || someWhere(text, '>', test)
  },
  longEscape: (text) => someWhere(text, '\\U', (at) => !CODE_POINT.test(text.slice(at + 2, at + 10))),
}

/** Eight hex digits of a code point up to U+10FFFF. */
const CODE_POINT = /^00(?:0[0-9A-Fa-f]|10)[0-9A-Fa-f]{4}$/

const SCANS = Object.values(PRECISE_SCANS)

/**
 * The rule that sends `text` to the precise path (the one PRECISE_PATTERN's first match names),
 * or undefined when none does.
 */
export function needsPrecise(text: string): string | undefined {
  if (!SCANS.some((scan) => scan(text))) return undefined
  const matched = PRECISE_PATTERN.exec(text)
  return matched ? ruleOf(matched[0]) : undefined
}

function ruleOf(match: string): string {
  for (const [name, pattern] of Object.entries(PRECISE_ONLY)) if (new RegExp(pattern.source, 'm').test(match)) return name
  return 'pattern'
}
