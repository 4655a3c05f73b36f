import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { emulator, exampleSeed, filesIn, importRun, planRun, tempDir, validateRun } from './helpers.js'

// Review round 19 (import, then plan): a list left out for its secrets (the default --secrets
// omit) named only the first secret's variable, on stderr and in the comment's "To manage it,
// set …", while the lines to add referred to every one: two sensitive headers gave "set
// TARGET_…_X_A_VALUE" over lines using …_X_B_VALUE too, and a user who did as told met "environment
// variable …_X_B_VALUE is not set" at the next plan. Every secret of the list is now named.
function seed() {
  const seed = exampleSeed()
  const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')!
  staging.site!.headers = [
    { name: 'X-A', value: 'header-secret-aaa-1', value_is_sensitive: true },
    { name: 'X-B', value: 'header-secret-bbb-2', value_is_sensitive: true },
  ]
  staging.site!.whitelist = ['/a', 'see https://u:url-pass-1@a.example.com/', 'see https://v:url-pass-2@b.example.com/']
  return seed
}

const references = (text: string) => [...text.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]!).sort()

describe('import --secrets omit: a list holding several secrets', () => {
  it('names every variable its lines to add refer to, on stderr and in the comment, and plans clean', async () => {
    const em = await emulator({ seed: seed() })
    const dir = tempDir()
    const run = await importRun(em, { kinds: ['target'], ids: ['7QwErTy2UiOp'], out: dir, secrets: 'omit' })
    expect(run.code, run.err).toBe(0)
    const targets = filesIn(dir)['targets.yaml']!
    for (const list of ['headers', 'whitelist']) {
      const comment = targets.slice(targets.indexOf(`  # Left out: site.${list} `)).split('\n').filter((line) => line.startsWith('  #'))
      const [said, ...part] = comment.slice(0, comment.findIndex((line, i) => i > 0 && line.startsWith('  # Left out')) >>> 0)
      const used = references(part.join('\n'))
      expect(used).toHaveLength(2)
      expect(references(said!.replace(/set ([A-Z0-9_, ]+) and/, (_, names: string) => names.split(', ').map((n) => `\${${n}}`).join(' ')))).toEqual(used)
      expect(references(run.err.split('\n').find((line) => line.startsWith(`  target 7QwErTy2UiOp site.${list}:`)) ?? '')).toEqual(used)
    }
    const valid = await validateRun(dir)
    expect(valid.code, valid.out + valid.err).toBe(0)
    const plan = await planRun(em, dir, {}, 'json')
    expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
  })
})
