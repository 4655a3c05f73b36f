// scripts/bundle.js writes the bundles in ASCII (scripts/ascii.js), checking with esbuild that the
// escaped code means what it did. A character outside the Basic Multilingual Plane written as two
// `\uXXXX` escapes (its UTF-16 halves) is read back by esbuild as the character, in a name too, so
// the check passed; V8 refuses such a name ("Invalid or unexpected token"): the build wrote a file
// no run could load.
import { spawnSync } from 'node:child_process'
import { isAscii } from 'node:buffer'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error a build script, plain JavaScript
import { inAscii } from '../../scripts/ascii.js'

const work = mkdtempSync(join(tmpdir(), 'scansync-ascii-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The file's exports, required by a Node process of its own. */
function loaded(file: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(file)})))`], { encoding: 'utf8' })
}

describe('bundles written in ASCII', () => {
  it('a name, a string and a comment holding characters beyond U+FFFF load as they were', async () => {
    const file = join(work, 'astral.cjs')
    writeFileSync(file, "// Math 𝐀 and 😀\nconst 𝐀 = 'é😀'\nconst x𝐀 = `t😀`\nmodule.exports = { value: 𝐀, other: x𝐀, length: 𝐀.length }\n")
    await inAscii(file)
    expect(isAscii(readFileSync(file))).toBe(true)
    const run = loaded(file)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({ value: 'é😀', other: 't😀', length: 3 })
  })

  it('one beyond U+FFFF in a tagged template (whose raw text escaping would change) still fails the build', async () => {
    const file = join(work, 'raw.cjs')
    const text = 'module.exports = String.raw`😀`\n'
    writeFileSync(file, text)
    await expect(inAscii(file)).rejects.toThrow(/a character outside ASCII in a pattern or a template/)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })
})
