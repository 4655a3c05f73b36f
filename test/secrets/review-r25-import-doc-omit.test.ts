// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md said
// the secrets sweep's imports write each secret as a `${VARIABLE}` reference; `import` leaves it out
// by default, with a comment naming the variable to set (README, "Quick start against a real
// account"), and writes references only with `--secrets reference`. The page says so now, and this
// shows both, through the real CLI against the emulator.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'
import { ROOT } from '../helpers/cli.js'

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
const REFERENCE = '${TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD}'

describe('docs/reliability.md: what import writes for a secret', () => {
  it('by default, only a comment names the variable; --secrets reference writes the reference', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const dir = tempdir()
    const omitted = await cli(em, dir, ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM'])
    expect(omitted.code).toBe(0)
    const lines = omitted.stdout.split('\n')
    expect(lines.filter((line) => line.includes(REFERENCE) && !line.trimStart().startsWith('#'))).toEqual([])
    expect(lines.some((line) => line.trimStart().startsWith('#') && line.includes(REFERENCE))).toBe(true)

    const referenced = await cli(em, dir, ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM', '--secrets', 'reference'])
    expect(referenced.code).toBe(0)
    expect(referenced.stdout.split('\n').some((line) => line.includes(REFERENCE) && !line.trimStart().startsWith('#'))).toBe(true)

    expect(doc).not.toContain('imported secrets are `${VARIABLE}` references')
    expect(doc).toContain('import leaves each secret out, with a comment naming the variable to set (`--secrets reference` writes `${VARIABLE}` references instead)')
  })
})
