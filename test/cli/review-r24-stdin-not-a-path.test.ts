// Review round 24 (saved plans, staleness and the state file): with no PATH on the command line,
// oclif took whatever stdin held (all its lines, as one word) as the PATH. `apply --plan FILE`
// in a `while read plan; do …; done < plans.txt` loop was refused with "leave out configuration
// paths" when none was given, and `scansync plan` in a git pre-push hook (whose stdin holds the
// refs being pushed) planned a "PATH" made of those refs. Stdin is never a PATH.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXAMPLE_SECRETS, emulator, envFor, exampleConfig, runCli, tempdir } from '../e2e/helpers.js'

const PUSHED_REFS = 'refs/heads/main 67e4f1a refs/heads/main 1b2c3d4\n'

describe('what stdin holds is not a PATH', () => {
  it('apply --plan FILE with stdin holding text applies the saved plan', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    const env = envFor(em, EXAMPLE_SECRETS)
    const saved = await runCli(['plan', '--out', 'release.plan.json', '-q'], { cwd: dir, env })
    expect(saved.code, saved.stderr).toBe(0)
    const applied = await runCli(['apply', '--plan', 'release.plan.json', '--auto-approve', '-q'], { cwd: dir, env, input: 'other.plan.json\n' })
    expect(applied.stderr).not.toContain('leave out configuration paths')
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('Apply: 4 applied, 0 failed')
  })

  it('plan with no PATH plans the current directory whatever stdin holds (a git hook)', async () => {
    const em = await emulator({ obfuscate: true })
    const dir = exampleConfig()
    const run = await runCli(['plan', '-q'], { cwd: dir, env: envFor(em, EXAMPLE_SECRETS), input: PUSHED_REFS })
    expect(run.stderr).not.toContain('refs/heads')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Plan: 4 to change, 4 unchanged.')
  })

  it('validate with no PATH validates the current directory whatever stdin holds', async () => {
    const dir = exampleConfig()
    const run = await runCli(['validate'], { cwd: dir, input: PUSHED_REFS })
    expect(run.stderr).not.toContain('refs/heads')
    expect(run.code, run.stderr).toBe(0)
  })

  it('init with no DIR writes into the current directory whatever stdin holds', async () => {
    const dir = tempdir()
    const run = await runCli(['init', '-q'], { cwd: dir, input: 'elsewhere\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(join(dir, 'targets.yaml'))).toBe(true)
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false)
  })
})
