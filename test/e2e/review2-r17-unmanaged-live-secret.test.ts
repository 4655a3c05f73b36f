// drift --unmanaged reads every target and agent whole. A password a target no file declares holds
// in clear (its flag true: the service answers it as it is) must not print where another listed
// resource quotes it: an undeclared agent named after it, or a declared asset's comment pasting it.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const PASSWORD = 'Undeclared-Pw-r17-3Jd8wQ'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop}
assets:
  - id: 9fGh2Kd8LmQz
    comment: fine
`

describe('drift --unmanaged: an undeclared target\'s password quoted elsewhere', () => {
  it.each(['text', 'json'])('is not printed (--format %s)', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': CONFIG })
    expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
    em.mutate('target', '9XcVbN5mQwEr', { site: { basic_auth: { username: 'scanner', password: PASSWORD, password_is_sensitive: true } } })
    em.mutate('agent', '6NbVcX4zLkJh', { name: `agent ${PASSWORD}` })
    em.mutate('asset', '9fGh2Kd8LmQz', { comment: `pw ${PASSWORD}` })
    const drift = await cli(em, dir, ['drift', '--unmanaged', '--format', format])
    expect(drift.code, drift.stderr).toBe(2)
    // Still listed and reported, the password hidden.
    expect(drift.stdout).toContain('6NbVcX4zLkJh')
    expect(drift.stdout).toContain('9fGh2Kd8LmQz')
    expect(drift.stdout + drift.stderr).not.toContain(PASSWORD)
  })
})
