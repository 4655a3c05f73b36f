import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { emulator, exampleSeed, filesIn, importRun, listedVariables, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review round 19 (import, then plan): a list of texts holding a secret in one item (a blacklist
// entry https://deploy:<password>@…) was left out whole with no word: no comment in the YAML, no
// line on stderr, and with --secrets reference no ${VARIABLE} either, unlike every other secret.
// The user took the file for the target's whole configuration, and the blacklist went unmanaged
// unseen. It is now a secret as a member's is: a reference, or left out with the comment.
const PASSWORD = 'Xk4vQ9mZ2pLw'
const SECRET_ENTRY = `https://deploy:${PASSWORD}@shop.example.com/admin/`

function seed() {
  const seed = exampleSeed()
  seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.blacklist = ['https://shop.example.com/logout', SECRET_ENTRY]
  return seed
}

describe('import: a list item holding a secret (a blacklist URL with a password)', () => {
  for (const secrets of ['reference', 'omit'] as const) {
    it(`is said, never written in clear, and the files plan clean (--secrets ${secrets})`, async () => {
      const em = await emulator({ seed: seed() })
      const dir = tempDir()
      const run = await importRun(em, { all: true, out: dir, secrets })
      expect(run.code, run.err).toBe(0)
      const targets = filesIn(dir)['targets.yaml']!
      expect(targets + run.out + run.err).not.toContain(PASSWORD)
      const listed = secrets === 'reference' ? listedVariables(run.err).filter((l) => l.id === '2DZkoZH8WMEM' && l.field.startsWith('site.blacklist')) : []
      if (secrets === 'reference') {
        expect(listed).toHaveLength(1)
        expect(targets).toContain(`\${${listed[0]!.variable}}`)
      } else {
        expect(run.err).toMatch(/target 2DZkoZH8WMEM site\.blacklist: \$\{TARGET_2DZKOZH8WMEM_SITE_BLACKLIST_1\}/)
        expect(targets).toContain('# Left out: site.blacklist (it holds a secret: site.blacklist[1]). To manage it, set TARGET_2DZKOZH8WMEM_SITE_BLACKLIST_1')
        expect(targets).toContain('  #   blacklist:\n  #     - ${TARGET_2DZKOZH8WMEM_SITE_BLACKLIST_1}\n  #     - https://shop.example.com/logout\n')
      }
      const env = secretEnv(em, run.err)
      if (secrets === 'reference') expect(env[listed[0]!.variable]).toBe(SECRET_ENTRY)
      const valid = await validateRun(dir, env)
      expect(valid.code, valid.out + valid.err).toBe(0)
      const plan = await planRun(em, dir, env, 'json')
      expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
      expect(plan.code).toBe(0)
    })
  }
})
