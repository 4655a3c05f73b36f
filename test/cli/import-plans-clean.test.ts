// README quick start, step 3 (issue 17, bug 2): right after an import, plan --detailed-exitcode
// exits 0 with no variable set, against a service that hides secrets and one that does not.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

describe.concurrent('import, then plan', () => {
  it.each([true, false])('obfuscate=%s: plans clean with no variable set; the comments name the variables', async (obfuscate) => {
    const em = await emulator({ obfuscate })
    const dir = tempdir()
    const imported = await cli(em, dir, ['import', '--kind', 'target,asset,agent', '--all', '--out', 'config'])
    expect(imported.stderr).toContain('Wrote config/targets.yaml')
    expect(imported.code).toBe(0)
    const targets = readFileSync(join(dir, 'config', 'targets.yaml'), 'utf8')
    expect(targets).toMatch(/# Left out: site\.basic_auth \(it holds a secret: site\.basic_auth\.password\)\. To manage it, set TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD and add under site:/)
    expect(targets).toContain('#   basic_auth:')
    expect(targets).toContain('#     password: ${TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD}')
    expect(targets).not.toMatch(/^[^#]*\$\{/m)
    const plan = await cli(em, dir, ['plan', 'config', '--detailed-exitcode'])
    expect(plan.stderr).toBe('')
    expect(plan.stdout).not.toContain('not yet tracked')
    expect(plan.code).toBe(0)
  })

  it('live values no configuration can declare (two headers of one name, a colour it does not accept) are left out, said where and why, and the files plan clean', async () => {
    const em = await emulator()
    const entry = (name: string, value: string) => ({ name, value, value_is_sensitive: false, allow_testing: false, authentication: false, authentication_secondary: false })
    em.mutate('target', '9XcVbN5mQwEr', { site: { headers: [entry('X-A', '1'), entry('X-A', '2')] } })
    em.mutate('target', '7QwErTy2UiOp', { labels: [{ name: 'odd', color: 'rgb(1, 2, 3)' }] })
    const dir = tempdir()
    const imported = await cli(em, dir, ['import', '--kind', 'target', '--all', '--out', 'config'])
    expect(imported.code, imported.stderr).toBe(0)
    const targets = readFileSync(join(dir, 'config', 'targets.yaml'), 'utf8')
    expect(targets).toContain('# Left out: site.headers (the service holds more than one entry of the name "X-A", which a configuration cannot declare); it stays as it is on the service')
    expect(targets).toMatch(/# Left out: labels\[odd\]\.color \(the service holds "rgb\(1, 2, 3\)", which the configuration does not accept here\)/)
    expect(imported.stderr).toContain('Left out (they stay as they are on the service; see the comments in the YAML):')
    expect(imported.stderr).toContain('  target 9XcVbN5mQwEr site.headers: the service holds more than one entry of the name "X-A"')
    // Only those two: an empty text is how the service answers a field it has no value for.
    const leftOut = imported.stderr.slice(imported.stderr.indexOf('Left out (they stay')).split('\n').slice(1)
    expect(leftOut.filter((l) => l.startsWith('  target ')).map((l) => l.split(':')[0])).toEqual(['  target 7QwErTy2UiOp labels[odd].color', '  target 9XcVbN5mQwEr site.headers'])
    const plan = await cli(em, dir, ['plan', 'config', '--detailed-exitcode'])
    expect(plan.code, plan.stdout + plan.stderr).toBe(0)
  })

  it('--secrets reference keeps ${VARIABLE} references (set them before the next plan)', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = tempdir()
    const imported = await cli(em, dir, ['import', '--kind', 'target', '--all', '--out', 'config', '--secrets', 'reference'])
    expect(imported.code).toBe(0)
    expect(readFileSync(join(dir, 'config', 'targets.yaml'), 'utf8')).toContain('password: ${TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD}')
    const plan = await cli(em, dir, ['plan', 'config', '--detailed-exitcode'])
    expect(plan.code).toBe(1)
    expect(plan.stderr).toContain('TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD')
  })

  it('--help says what each choice means for the next plan', async () => {
    const { stdout } = await cli(await emulator(), tempdir(), ['import', '--help'])
    const text = stdout.replace(/\s+/g, ' ')
    expect(text).toMatch(/--secrets=<option>/)
    expect(text).toMatch(/omit \(default\) leaves it out.*plans clean with no variable set/)
    expect(text).toMatch(/reference writes \$\{VARIABLE\} references: set each variable before the next plan/)
  })

  it('--include-defaults writes an empty list on the key line (`form_login: []`)', async () => {
    const em = await emulator()
    const { code, stdout } = await cli(em, tempdir(), ['import', '--kind', 'target', '--all', '--include-defaults'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^ +form_login: \[\]$/m)
    expect(stdout).not.toMatch(/:\n +\[\]$/m)
  })
})
