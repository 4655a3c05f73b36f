// Review round 19 (a rotated secret's old value printed in clear), a sibling: a text field whose
// value came whole from a ${VARIABLE} (a target's description, an asset's comment), then written
// in the YAML as a literal (the secret moved elsewhere, or the field made public): the plan printed
// the live old value in clear (`site.desc: "desc-Secret-…" -> "public description"`). A live value
// the secrets state records as applied from a variable now prints as (sensitive).
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const BEFORE = `targets:
  - id: 9XcVbN5mQwEr
    site:
      desc: "\${DESC}"
assets:
  - id: 9fGh2Kd8LmQz
    comment: "\${COMMENT}"
`

const AFTER = `targets:
  - id: 9XcVbN5mQwEr
    site:
      desc: public description
assets:
  - id: 9fGh2Kd8LmQz
    comment: public comment
`

const SECRETS = { DESC: 'desc-Secret-4Kp7', COMMENT: 'comment-Secret-4Kp7' }

describe('a text field from a variable, then written as a literal', () => {
  it.each(['text', 'json', 'github', 'markdown'])('plan and drift never print the old value (--format %s)', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': BEFORE })
    const applied = await cli(em, dir, ['apply', '--auto-approve'], SECRETS)
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(join(dir, 'c.yaml'), AFTER)
    const plan = await cli(em, dir, ['plan', '--format', format])
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stdout).toContain('9XcVbN5mQwEr')
    expect(plan.stdout).toContain('9fGh2Kd8LmQz')
    expect(plan.stdout).toContain('(sensitive)')
    expect(plan.stdout + plan.stderr).not.toContain('4Kp7')
    const drift = await cli(em, dir, ['drift', '--format', format])
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout + drift.stderr).not.toContain('4Kp7')
    // Applied, the literal is sent and the plan is empty.
    expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
    expect((em.get('asset', '9fGh2Kd8LmQz') as { comment: string }).comment).toBe('public comment')
    expect((await cli(em, dir, ['plan', '--detailed-exitcode'])).code).toBe(0)
  })
})
