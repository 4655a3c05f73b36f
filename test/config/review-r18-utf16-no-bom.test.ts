// UTF-16 written without a byte order mark (Node's writeFileSync(…, 'utf16le'), an editor's
// "UTF-16 LE" without BOM) is valid UTF-8 when its text is ASCII, every other byte NUL: it got past
// the UTF-16 check (which looks for the byte order mark) and validate said "the top level is a
// single value; expected a mapping", about a file whose text reads `targets: []`. It is now named
// as UTF-16 and to be saved as UTF-8, as a file with the byte order mark is.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

describe('a configuration file in UTF-16 without a byte order mark', () => {
  it.each(['utf16le', 'utf16be'] as const)('%s: validate says it is UTF-16 and to save it as UTF-8', async (encoding) => {
    const dir = temporaryDirectory('scansync-r18-utf16-', {})
    const text = Buffer.from('targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: Shop\n', 'utf16le')
    writeFileSync(join(dir, 'targets.yaml'), encoding === 'utf16le' ? text : text.swap16())
    const run = await runCli(['validate', '.'], { cwd: dir, env: {} })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('targets.yaml:1:1: the file is UTF-16 text without a byte order mark (every other byte is NUL), not UTF-8: save it as UTF-8')
    expect(run.stderr).not.toContain('single value')
  })
})
