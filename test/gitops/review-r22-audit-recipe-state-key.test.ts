// Review round 22 (the CI recipes executed as a runner executes them): audit reads the secrets
// state (round 21), keyed by SCANSYNC_STATE_KEY, yet the nightly audit workflow did not set it,
// though every other job sharing the state does. The audit job then took the committed state for
// one "written with another key", so every name of a resource with a value recorded from a variable
// was held back as possibly secret: a mistyped agent name that the pull-request plan answered with
// 'did you mean "dc-porto-agent"?' was answered by the nightly audit without it, leaving out the
// very agent meant, with no word of why.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { collectOutput, ROOT, runCli } from '../helpers/cli.js'
import { emulatorWith, temporaryDirectory } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)

const TOKEN = 'audit-Tok3n-3f6b9d2e71'
const emulator = emulatorWith(TOKEN)
const SECRETS = { SCANSYNC_STATE_KEY: 'audit-State-Key-7a1c5e9b20', TEAM: 'Marketing' }

type Job = { env: Record<string, string>; steps: { name?: string; run?: string }[] }
const jobOf = (file: string): Job => Object.values(parse(readFileSync(join(ROOT, 'examples', 'ci', 'github', file), 'utf8')).jobs)[0] as Job

/** The environment a job's `env:` gives it, from the repository's secrets and variables. */
function jobEnv(job: Job, store: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(job.env)) {
    const source = /^\$\{\{\s*(?:secrets|vars)\.([A-Z_]+)\s*\}\}$/.exec(value)?.[1]
    // An expression naming a secret nobody set is the empty string, as Actions gives it.
    env[name] = source ? (store[source] ?? '') : value
  }
  return env
}

describe('the nightly audit workflow reads the committed secrets state with the shared key', () => {
  it('answers a mistyped agent name as the pull-request plan does', async () => {
    const em = await emulator()
    const dir = temporaryDirectory('scansync-r22-audit-key-')
    mkdirSync(join(dir, 'config'))
    // An apply (the merge job, with the shared key) records that this agent's teams come from a variable.
    writeFileSync(join(dir, 'config', 'agents.yaml'), 'agents:\n  - id: 6NbVcX4zLkJh\n    name: dc-porto-agent\n    teams: [{name: "${TEAM}"}]\n')
    const applied = await runCli(['apply', 'config', '--auto-approve'], { cwd: dir, env: { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: TOKEN, ...SECRETS } })
    expect(applied.code, applied.stderr).toBe(0)
    writeFileSync(
      join(dir, 'config', 'agents.yaml'),
      'targets:\n  - id: 2DZkoZH8WMEM\n    scanning_agent: {name: dc-porto-agnt}\npolicies:\n  - name: targets-have-a-site\n    kind: target\n    require: {required: [site]}\n',
    )

    const shims = join(dir, '.bin')
    mkdirSync(shims)
    writeFileSync(join(shims, 'npx'), `#!/bin/sh\n[ "$1" = --no ] && shift\n[ "$1" = scansync ] && shift\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`)
    chmodSync(join(shims, 'npx'), 0o755)
    const store = { SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: TOKEN, ...SECRETS }
    const step = async (file: string, name: string) => {
      const job = jobOf(file)
      const script = job.steps.find((s) => s.name === name)?.run
      if (!script) throw new Error(`no step ${name} in ${file}`)
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        cwd: dir,
        env: { PATH: `${shims}:${process.env.PATH}`, HOME: dir, NO_COLOR: '1', CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_OUTPUT: join(dir, '.output'), ...jobEnv(job, store) },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      return collectOutput(child)
    }

    const plan = await step('scansync-plan.yml', 'Plan')
    expect(plan.code).toBe(1)
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toContain('did you mean "dc-porto-agent"?')
    const audit = await step('scansync-audit.yml', 'Policy audit')
    expect(audit.code).toBe(1)
    expect(audit.stdout + audit.stderr).toContain('no agent is named "dc-porto-agnt"')
    expect(audit.stdout + audit.stderr).toContain('did you mean "dc-porto-agent"?')
  })
})
