// C0/C1 controls, DEL, the Unicode line separators, and the format characters (\p{Cf}): the
// bidirectional overrides that could rearrange or hide text on a terminal or in a browser
// ("Trojan source"), and the characters with no glyph (zero-width space and joiners, soft
// hyphen, byte order mark), without which a change of one read `"Promo" -> "Promo"`. The other
// code points Unicode draws as nothing (Default_Ignorable_Code_Point: the combining grapheme
// joiner, variation selectors, Hangul fillers) too; and the spaces other than U+0020 (no-break,
// thin, ideographic…), which print as a space: a name copied from a web page read
// `name: "dc lisbon" -> "dc lisbon"`.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/gu

/** `\uXXXX` for each UTF-16 unit (a format character outside the BMP as JSON writes it: two). */
const escapeChar = (c: string) => {
  let out = ''
  for (let i = 0; i < c.length; i++) out += '\\u' + c.charCodeAt(i).toString(16).padStart(4, '0')
  return out
}

// A name that must stay as it is found (a file's, in an annotation's `file=`): the format characters
// kept but for the bidirectional marks, as a Persian name's zero-width non-joiner or an emoji's
// joiner are part of the name the runner looks for.
const UNSAFE_BUT_INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

// A letter followed by combining marks that Unicode composes with it (an "e" then U+0301, as macOS and
// some web forms write "é": NFD) draws as the composed letter: an agent renamed so by hand planned
// `name: "Café" -> "Café"`, and a team named so was offered as `did you mean "Café"?` for "Café".
// Such marks print as their escapes; composed text, and a mark with no composed letter (Hindi, a
// "q" with an acute), print as they are.
const MARKED = /(\P{M})(\p{M}+)/gu
const MARK = /\p{M}/u
const decomposed = (text: string): string => (!MARK.test(text) || text.normalize('NFC') === text ? text : text.replace(MARKED, (cluster, base: string, marks: string) => (cluster.normalize('NFC') === cluster ? cluster : base + marks.replace(/./gsu, escapeChar))))

/**
 * Text from the plan (ids, paths, messages) made safe to print: control characters become `\uXXXX`.
 * `keepInvisible` keeps the format characters that do not reorder text (a file's name).
 */
export function printable(text: string, options: { keepNewlines?: boolean; keepInvisible?: boolean } = {}): string {
  if (options.keepInvisible) return text.replace(UNSAFE_BUT_INVISIBLE, escapeChar)
  return decomposed(text).replace(options.keepNewlines ? UNSAFE_EXCEPT_NEWLINE : UNSAFE, escapeChar)
}
