// Review round 22 (an attacker of the round's last merges): this round escapes format characters
// (`\u200c`) everywhere a text prints, and gives back a file's name as it is found where a line
// names it for an editor or a problem matcher (an error line, a violation line, an annotation's
// `file=`: keepInvisible). drift's list of declared resources the service no longer has was left
// out: `! target 9ZzGoneTarget "Gone" (declared at c\u200cd.yaml:3)` (and the Markdown comment's
// "Declared at" cell) named a file that does not exist, where plan's error line about the same
// resource named `c‌d.yaml:3:9` as it is. Controls and bidirectional marks stay escaped.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const CONFIG = 'targets:\n  - id: 2DZkoZH8WMEM\n  - id: 9ZzGoneTarget\n    site: {name: Gone}\n'

describe("drift's list of declared resources gone from the service, in a file whose name holds a joiner", () => {
  it.each(['تنظیمات\u200cاصلی.yaml', 'team-👩\u200d💻.yaml'])('names the file as it is (%j)', async (file) => {
    const em = await emulator()
    const dir = tempdir({ [file]: CONFIG })
    const text = await cli(em, dir, ['drift'])
    expect(text.code, text.stderr).toBe(2)
    expect(text.stdout).toContain(`! target 9ZzGoneTarget "Gone" (declared at ${file}:3)`)
    const markdown = await cli(em, dir, ['drift', '--format', 'markdown'])
    expect(markdown.code, markdown.stderr).toBe(2)
    expect(markdown.stdout).toContain(`| ! | target | <code>9ZzGoneTarget</code> | Gone | <code>${file}:3</code> |`)
  })

  it('still escapes a bidirectional override in the name', async () => {
    const em = await emulator()
    const dir = tempdir({ 'ab\u202ecd.yaml': CONFIG })
    const text = await cli(em, dir, ['drift'])
    expect(text.code, text.stderr).toBe(2)
    expect(text.stdout).toContain('(declared at ab\\u202ecd.yaml:3)')
    expect(text.stdout + text.stderr).not.toContain('\u202e')
    const markdown = await cli(em, dir, ['drift', '--format', 'markdown'])
    expect(markdown.stdout).toContain('<code>ab\\\\u202ecd.yaml:3</code>')
    expect(markdown.stdout).not.toContain('\u202e')
  })
})
