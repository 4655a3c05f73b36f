// Review round 22 (the CI recipes executed as a runner executes them): in GitLab, a job of a later
// stage runs only when every job of the earlier stages passed. A merge-request push whose YAML is
// invalid failed scansync:validate (stage validate), so scansync:plan (stage plan) never ran, and
// the merge request's note went on showing the plan of the push before, as if it were this one's:
// the very stale note the plan job's failure path exists to replace ("The plan failed; nothing was
// sent", with the reasons). The plan job does not wait for the validate stage now; it validates
// first itself, sends nothing, and its note lists the errors.
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { collectOutput, ROOT } from '../helpers/cli.js'
import { copyConfiguration, emulatorWith, temporaryDirectory } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)

const TOKEN = 'gitlab-Tok3n-8e2d4c6a1f'
const emulator = emulatorWith(TOKEN)
type Job = { stage: string; needs?: unknown[]; rules?: { if?: string; when?: string }[]; script: string[] }
const recipe = parse(readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8')) as Record<string, Job> & { stages: string[] }

/** Whether GitLab starts `job` although a job of an earlier stage failed (its rules matching). */
function runsAfterAnEarlierStageFailed(job: Job): boolean {
  if (Array.isArray(job.needs) && job.needs.length === 0) return true
  return (job.rules ?? []).every((rule) => rule.when === 'always')
}

describe('GitLab merge-request plan note when the configuration is invalid', () => {
  it('the plan job runs (not skipped after scansync:validate fails) and its note lists the errors', async () => {
    const validate = recipe['scansync:validate']
    const plan = recipe['scansync:plan']
    // Both run on merge requests, validate in an earlier stage.
    expect(recipe.stages.indexOf(validate.stage)).toBeLessThan(recipe.stages.indexOf(plan.stage))
    expect(runsAfterAnEarlierStageFailed(plan)).toBe(true)

    const em = await emulator()
    const dir = temporaryDirectory('scansync-r22-gitlab-note-')
    copyConfiguration(join(dir, 'config'))
    writeFileSync(join(dir, 'config', 'agents.yaml'), 'agents:\n  - id: G1\n    nme: dc-1\n')
    const shims = join(dir, '.bin')
    mkdirSync(shims)
    writeFileSync(join(shims, 'npx'), `#!/bin/sh\n[ "$1" = --no ] && shift\n[ "$1" = scansync ] && shift\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`)
    chmodSync(join(shims, 'npx'), 0o755)
    // GitLab runs a job's script items one after the other in one shell, stopping at the first failure.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', plan.script.join('\n')], {
      cwd: dir,
      env: { PATH: `${shims}:${process.env.PATH}`, HOME: dir, NO_COLOR: '1', CI: 'true', GITLAB_CI: 'true', SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run = await collectOutput(child)
    expect(run.code).toBe(1)
    const note = readFileSync(join(dir, 'plan.md'), 'utf8')
    expect(note).toMatch(/^### scansync plan\n\nThe plan failed; nothing was sent:\n\n```\n/)
    expect(note).toContain('config/agents.yaml:3:5: agent G1: nme: unknown field')
    expect(em.requests().filter((request) => request.method !== 'GET')).toEqual([])
  })
})
