// Review round 25 (the CI recipes in examples/ci, adopted as they are by a platform team).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const recipe = (file: string) => parse(readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8'))

/** A workflow's `${{ github.* }}` expressions, evaluated as Actions does for one run's context. */
function evaluate(text: string, github: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const name = /^github\.([a-z_]+)$/.exec(expression)?.[1]
    if (name === undefined || !(name in github)) throw new Error(`cannot evaluate ${expression}`)
    return github[name]
  })
}

describe('GitHub apply workflow: concurrency', () => {
  // Actions keeps one run in progress and ONE pending per concurrency group: a run entering the
  // group replaces (cancels) the pending one. The group was the same for every run, so a manual run
  // started on another branch (whose job is then skipped) cancelled a merge's apply waiting behind
  // the running one, and that merge was applied by no run.
  const group = (github: Record<string, string>) => evaluate(String(recipe('github/scansync-apply.yml').concurrency.group), github)
  const main = { ref: 'refs/heads/main', ref_name: 'main', event_name: 'push', workflow: 'scansync apply' }

  it('a manual run on another branch never shares the group of the runs of main', () => {
    const feature = { ref: 'refs/heads/try-it', ref_name: 'try-it', event_name: 'workflow_dispatch', workflow: 'scansync apply' }
    expect(group(feature)).not.toBe(group(main))
  })

  it('the runs of main, pushed or started by hand, still wait for one another', () => {
    expect(group({ ...main, event_name: 'workflow_dispatch' })).toBe(group(main))
    expect(recipe('github/scansync-apply.yml').concurrency['cancel-in-progress']).toBe(false)
  })
})

describe('GitLab recipe: the token that pushes the secrets state', () => {
  // The header asked for a Developer token, not protected: GitLab protects the default branch
  // against Developers' pushes by default, so the push after each apply failed the job; and an
  // unprotected variable is given to every merge request's pipeline, which runs the branch's own
  // .gitlab-ci.yml and package-lock.json, so anyone opening one could take the token.
  const header = readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8').split('\n').filter((line) => line.startsWith('#')).join('\n')
  const pushToken = /^# {3}SCANSYNC_PUSH_TOKEN[\s\S]*?(?=^# {3}\S|^#\s*$|^# Drift)/m.exec(header)?.[0] ?? ''

  it('asks for a protected variable, with a role the default branch lets push', () => {
    expect(pushToken).toContain('SCANSYNC_PUSH_TOKEN')
    expect(pushToken).toMatch(/"protected"/)
    expect(pushToken).toContain('Maintainer')
    expect(pushToken).not.toMatch(/Developer\)/)
  })

  it('the apply job, which uses it, runs only in pipelines of the default branch', () => {
    const rules = recipe('gitlab-ci.yml')['scansync:apply'].rules as { if: string }[]
    expect(rules.map((rule) => rule.if)).toEqual(['$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH'])
    const others = Object.entries(recipe('gitlab-ci.yml')).filter(([name]) => name.startsWith('scansync:') && name !== 'scansync:apply')
    for (const [, job] of others) expect(JSON.stringify(job)).not.toContain('SCANSYNC_PUSH_TOKEN')
  })
})

describe('every recipe runs the installed scansync, never one npx downloads', () => {
  // `npx scansync` runs a package of that name from the registry when none is installed (npx
  // assumes --yes in CI): with scansync left out of package.json, or NODE_ENV=production making
  // `npm ci` skip devDependencies, the job ran whatever the registry had under that name, with the
  // API token, the state key and every ${NAME} secret in its environment.
  const files = ['github/scansync-plan.yml', 'github/scansync-apply.yml', 'github/scansync-drift.yml', 'github/scansync-audit.yml', 'gitlab-ci.yml']
  it.each(files)('%s: each npx is told not to install (--no)', (file) => {
    const text = readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8')
    const runs = [...text.matchAll(/\bnpx((?:\s+-\S+)*)\s+scansync\b/g)]
    expect(runs.length).toBeGreaterThan(0)
    for (const run of runs) expect(run[1].split(/\s+/), run[0]).toContain('--no')
    // No other way to reach the registry's package: every npx in the file names scansync.
    expect([...text.matchAll(/\bnpx\b/g)].length).toBe(runs.length + (text.match(/`npx[^`]*`/g)?.length ?? 0))
  })
})
