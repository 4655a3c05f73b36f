// A plan saved from a sub-folder (a job's working-directory: config, plan --out ../release.plan.json)
// names its files relative to that sub-folder (targets/shop.yaml). apply --plan run from elsewhere
// (the repository root, where the plan file is) annotated file=targets/shop.yaml, a file GitHub
// does not find, for config/targets/shop.yaml: the saved plan now keeps the directory plan ran in
// (relative to the plan file, as its configuration paths), and apply --plan annotates from there.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'
import { annotated, POLICY, TARGETS } from './annotation-fixtures.js'


describe('apply --plan of a plan saved in a sub-folder, run from the repository root', () => {
  it('annotates the files relative to the repository root', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const repo = tempdir({ 'config/targets/shop.yaml': TARGETS, 'config/policies.yaml': POLICY })
    mkdirSync(join(repo, '.git'))
    const env = { GITHUB_WORKSPACE: repo }

    const planned = await cli(em, join(repo, 'config'), ['plan', '--out', '../release.plan.json', '--format', 'github'], env)
    expect(planned.code).toBe(0)
    expect(annotated(planned.stdout)).toEqual(['config/targets/shop.yaml', 'config/targets/shop.yaml'])

    const applied = await cli(em, repo, ['apply', '--plan', 'release.plan.json', '--auto-approve', '--format', 'github'], env)
    expect(applied.code).toBe(0)
    expect(annotated(applied.stdout)).toEqual(['config/targets/shop.yaml'])
  })
})
