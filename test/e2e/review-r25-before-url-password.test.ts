// Review round 25 (attack this round's own fixes): a changed field now shows its value before as
// the service holds it, not in its comparison form. A live URL holding a password in a spelling
// URL parsers read as https://user:pw@host/ (one slash, a backslash, a space
// in the password) was (sensitive) in its
// comparison form; shown as held, the password printed in plan and drift, in every format.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const PASSWORD = 'Sup3r-Url-Pw-r25q'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop, url: "https://shop.example.com/"}
`

describe('a live URL with a password, in a spelling URL parsers accept', () => {
  it.each(['text', 'json', 'github', 'markdown'])('is not printed by plan or drift (--format %s)', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': CONFIG })
    expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
    // A space in the password: a text's URL ends at a space, a URL parser's does not (it writes %20).
    for (const url of [`https:/admin:${PASSWORD}@shop.example.com/`, `https:\\\\admin:${PASSWORD}@shop.example.com/`, `https://admin:${PASSWORD} x@shop.example.com/`]) {
      em.mutate('target', '2DZkoZH8WMEM', { site: { url } })
      const drift = await cli(em, dir, ['drift', '--format', format])
      expect(drift.code, drift.stderr).toBe(2)
      // Still reported as a change of the URL.
      expect(drift.stdout).toContain('site.url')
      expect(drift.stdout + drift.stderr).not.toContain(PASSWORD)
      const plan = await cli(em, dir, ['plan', '--format', format])
      expect(plan.stdout).toContain('site.url')
      expect(plan.stdout + plan.stderr).not.toContain(PASSWORD)
    }
  })
})
