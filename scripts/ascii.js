// The bundles of scripts/bundle.js written in ASCII (src/core/code-cache.ts reads such a file at one byte a character).
import { transform } from 'esbuild'
import { readFileSync, writeFileSync } from 'node:fs'

/**
 * The bundles in ASCII: src/core/code-cache.ts reads a file of ASCII only at one byte a character,
 * and a single other character (a quotation mark in a comment, a name in a licence) makes V8 hold
 * the file's whole source at two bytes each: ~0.5 MB more memory touched at every start. Each such
 * character is written as a `\u` escape (`\u{…}` beyond U+FFFF), which means the same in a comment, a string or a name;
 * the change is checked to leave the code as it was (esbuild's output without comments the same
 * before and after), so one in a pattern or a template fails the build until `exact` replaces it
 * (text matched once, before the rest). test/cli/code-cache.test.ts checks the files.
 */
export async function inAscii(file, exact = []) {
  let text = readFileSync(file, 'utf8')
  for (const [from, to] of exact) {
    if (text.split(from).length !== 2) throw new Error(`${file}: expected ${JSON.stringify(from)} once; the package changed, review scripts/bundle.js`)
    text = text.replace(from, to)
  }
  // A character beyond U+FFFF as one `\u{…}`: its two halves as `\uXXXX` each are refused in a name
  // by V8 (esbuild reads them as the character, so its check would pass).
  const escaped = text.replace(/[^\x00-\x7f]/gu, (c) => {
    const point = c.codePointAt(0)
    return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, '0')}`
  })
  const code = async (source) => (await transform(source, { loader: 'js', minifyWhitespace: true, charset: 'utf8', legalComments: 'none', logLevel: 'silent' })).code
  if (escaped !== text && (await code(escaped)) !== (await code(text))) {
    throw new Error(`${file}: a character outside ASCII in a pattern or a template (escaping it would change the code); replace it in scripts/bundle.js`)
  }
  writeFileSync(file, escaped)
}
