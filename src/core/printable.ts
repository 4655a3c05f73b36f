// C0/C1 controls, DEL, the Unicode line separators, and the format characters (\p{Cf}): the
// bidirectional overrides that could rearrange or hide text on a terminal or in a browser
// ("Trojan source"), and the characters with no glyph (zero-width space and joiners, soft
// hyphen, byte order mark), without which a change of one read `"Promo" -> "Promo"`.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu
const UNSAFE_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu

/** `\uXXXX` for each UTF-16 unit (a format character outside the BMP as JSON writes it: two). */
const escapeChar = (c: string) => {
  let out = ''
  for (let i = 0; i < c.length; i++) out += '\\u' + c.charCodeAt(i).toString(16).padStart(4, '0')
  return out
}

/** Text from the plan (ids, paths, messages) made safe to print: control characters become `\uXXXX`. */
export function printable(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? UNSAFE_EXCEPT_NEWLINE : UNSAFE, escapeChar)
}
