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
