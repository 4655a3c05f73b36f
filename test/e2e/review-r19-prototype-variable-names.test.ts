// Review round 19 (variables and secrets, end to end): a variable named as a member every JavaScript
// object has (`${constructor}`, `${toString}`, `${__proto__}`, ...) was looked up on the object of
// the environment, where it is always there. Not set, with the token set (plan, apply, drift), it
// stopped scansync with 'unexpected failure: value.includes is not a function ... please report it';
// without the token (validate) the configuration passed, and with a fallback (`${valueOf:-text}`)
// apply sent the text of a JavaScript function ('function valueOf() { [native code] }') instead of
// the fallback.
import { describe, expect, it } from 'vitest'
import { cli, emulator, runCli, tempdir } from './helpers.js'

const target = (desc: string) => `targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      desc: "${desc}"\n`

describe('a variable named as a member of every object', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('${%s}, not set, is said to be not set at its line by validate and plan', async (name) => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': target(`before \${${name}} after`) })
    const expected = `targets.yaml:4:13: target 2DZkoZH8WMEM: site.desc: environment variable ${name} is not set`
    const validated = await runCli(['validate', '.'], { cwd: dir })
    expect(validated.stderr).toContain(expected)
    expect(validated.code).toBe(1)
    const planned = await cli(em, dir, ['plan', '.'])
    expect(planned.stderr).not.toContain('unexpected failure')
    expect(planned.stderr).toContain(expected)
    expect(planned.code).toBe(1)
  })

  it('${valueOf:-fallback}, not set, sends the fallback', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': target('${valueOf:-Run by the agency}') })
    const applied = await cli(em, dir, ['apply', '.', '--auto-approve'])
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { desc: string } }).site.desc).toBe('Run by the agency')
  })

  it('a saved plan whose literal holds the fallback of ${valueOf:-…} applies as planned', async () => {
    const em = await emulator()
    const config = 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: "${valueOf:-Acme Zeta Shop}"\n      desc: "About Acme Zeta Shop"\n'
    const dir = tempdir({ 'targets.yaml': config })
    const saved = await cli(em, dir, ['plan', '.', '--out', 'zeta.plan.json'])
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await cli(em, dir, ['apply', '--plan', 'zeta.plan.json', '--auto-approve'])
    expect(applied.stderr).toBe('')
    expect(applied.code).toBe(0)
    expect((em.get('target', '2DZkoZH8WMEM') as { site: { desc: string } }).site.desc).toBe('About Acme Zeta Shop')
  })
})
