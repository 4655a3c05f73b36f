// One mistake in a block that many resources merge (`<<: *window`) is one problem, said once at
// the line where it is written and naming the resources that merge it: a typo in the blackout
// window 2,000 targets share was 2,000 identical lines (and 2,000 annotations on one line of a
// pull request). Problems of each resource's own lines stay one each.
import { describe, expect, it } from 'vitest'
import { cli, emulator, runCli, tempdir } from './helpers.js'

/** `count` targets merging one window, which misspells a field and a weekday; each target also misspells its own `name`. */
function sharedWindow(count: number): string {
  const targets = Array.from({ length: count }, (_, i) => `  - id: T${String(i).padStart(11, '0')}\n    site: {url: https://t${i}.example.com/}\n    <<: *window\n`)
  return `x-window: &window\n  blackout_period:\n    enabled: true\n    begin: "08:00"\n    cease: "18:00"\n    weekdays: [1, funday]\n    timezone: Europe/Berlin\n    colour: red\ntargets:\n${targets.join('')}`
}

const errorLines = (stderr: string) => stderr.split('\n').filter((line) => /^c\.yaml:\d+:\d+: /.test(line))

describe('a mistake in a block many resources merge', () => {
  it('validate says it once at its line, naming the resources', async () => {
    const dir = tempdir({ 'c.yaml': sharedWindow(3) })
    const run = await runCli(['validate', dir], { cwd: dir })
    expect(run.code).toBe(1)
    expect(errorLines(run.stderr)).toEqual([
      'c.yaml:6:19: targets T00000000000, T00000000001 and T00000000002: blackout_period.weekdays[1] must be an integer (got a string)',
      'c.yaml:8:5: targets T00000000000, T00000000001 and T00000000002: blackout_period.colour: unknown field (known fields: begin, cease, weekdays, enabled, timezone)',
    ])
    expect(run.stderr).toContain('2 errors; nothing was sent.')
  })

  it('names five and counts the others, however many merge it (the hint is the same for each)', async () => {
    const dir = tempdir({ 'c.yaml': sharedWindow(1_500) })
    const run = await runCli(['validate', dir], { cwd: dir })
    expect(errorLines(run.stderr)).toEqual([
      'c.yaml:6:19: targets T00000000000, T00000000001, T00000000002, T00000000003, T00000000004 and 1,495 more: blackout_period.weekdays[1] must be an integer (got a string)',
      'c.yaml:8:5: targets T00000000000, T00000000001, T00000000002, T00000000003, T00000000004 and 1,495 more: blackout_period.colour: unknown field (known fields: begin, cease, weekdays, enabled, timezone)',
    ])
  })

  it("keeps each resource's own mistakes apart, at their own lines", async () => {
    const config = `x-labels: &labels\n  labels: [{name: Prod}, {name: Prod}]\ntargets:\n  - id: 2DZkoZH8WMEM\n    <<: *labels\n    fail_fst: true\n  - id: 7QwErTy2UiOp\n    <<: *labels\n    fail_fst: true\n`
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': config })
    const invalid = await runCli(['validate', dir], { cwd: dir })
    expect(errorLines(invalid.stderr)).toEqual([
      'c.yaml:6:5: target 2DZkoZH8WMEM: fail_fst: unknown field; did you mean "fail_fast"?',
      'c.yaml:9:5: target 7QwErTy2UiOp: fail_fst: unknown field; did you mean "fail_fast"?',
    ])
    // The plan's own checks of declared resources (a label declared twice) too, one annotation in the github format.
    const fixed = tempdir({ 'c.yaml': config.replaceAll('    fail_fst: true\n', '') })
    const plan = await cli(em, fixed, ['plan', fixed, '--format', 'github'])
    expect(plan.code).toBe(1)
    const annotations = plan.stderr.split('\n').filter((line) => line.startsWith('::error '))
    expect(annotations).toEqual(['::error file=c.yaml,line=2,col=26,title=scansync%3A invalid configuration::targets 2DZkoZH8WMEM and 7QwErTy2UiOp: labels[1]: name "Prod" is declared twice (first at line 2); each name may appear once'])
    expect(plan.stderr).toContain('1 error in the configuration; nothing was sent.')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })

  it('a variable not set in a shared block is said once', async () => {
    const config = `x-auth: &auth\n  site:\n    url: https://a.example.com/\n    basic_auth: {username: bob, password: "\${R20_UNSET_PASSWORD}"}\ntargets:\n  - id: 2DZkoZH8WMEM\n    <<: *auth\n  - id: 7QwErTy2UiOp\n    <<: *auth\n`
    const dir = tempdir({ 'c.yaml': config })
    const run = await runCli(['validate', dir], { cwd: dir })
    expect(errorLines(run.stderr)).toEqual([
      'c.yaml:4:43: targets 2DZkoZH8WMEM and 7QwErTy2UiOp: site.basic_auth.password: environment variable R20_UNSET_PASSWORD is not set (referenced here; set it, or write ${R20_UNSET_PASSWORD:-fallback})',
    ])
  })
})
