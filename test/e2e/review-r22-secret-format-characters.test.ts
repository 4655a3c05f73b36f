// Review round 22 (attacks on this round's escaping): the printed form of a value now writes
// format characters (a zero-width joiner in an emoji, a zero-width non-joiner in Persian, a soft
// hyphen) as `\u200d`, and the redaction looked for a secret only as it is, in JSON or URL forms:
// a live password holding an emoji sequence and pasted by hand into another resource printed
// whole in drift and plan (text, github, markdown: `"the password is Hand-Pw-👩\u200d💻-7Kq9zX"`).
// The redaction now knows a secret's printed form as well.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const PASSWORDS = ['Hand-Pw-👩\u200d💻-7Kq9zX', 'Hand-Pw-می\u200cخواهم-7Kq9zX', 'Hand-Pw-Ünter\u00adschrift-7Kq9zX']

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop}
assets:
  - id: 9fGh2Kd8LmQz
    comment: fine
agents:
  - id: 3kLx8Qy7Pb2m
    name: lisbon
`

describe('a live secret holding a format character, quoted by another resource', () => {
  it.each(PASSWORDS.flatMap((password) => ['text', 'json', 'github', 'markdown'].map((format) => [password, format])))('is not printed (%j, --format %s)', async (password, format) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': CONFIG })
    expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
    em.mutate('target', '2DZkoZH8WMEM', { site: { basic_auth: { username: 'scanner', password, password_is_sensitive: true } } })
    em.mutate('asset', '9fGh2Kd8LmQz', { comment: `the password is ${password}` })
    em.mutate('agent', '3kLx8Qy7Pb2m', { name: `agent ${password}` })
    for (const command of ['drift', 'plan']) {
      const run = await cli(em, dir, [command, '--format', format])
      expect(run.code, run.stderr).toBe(command === 'drift' ? 2 : 0)
      // Still reported, with the secret masked.
      expect(run.stdout).toContain('9fGh2Kd8LmQz')
      expect(run.stdout).toContain('3kLx8Qy7Pb2m')
      expect(run.stdout).toContain('the password is (sensitive)')
      expect(run.stdout + run.stderr).not.toContain('Hand-Pw')
      expect(run.stdout + run.stderr).not.toContain('7Kq9zX')
    }
  })
})
