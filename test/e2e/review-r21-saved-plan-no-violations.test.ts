// Review round 21 (four formats, one story): for a configuration with policies that the resources
// all meet, `plan --format json` and `apply --format json` print `"violations": []` (the schema:
// present when the configuration holds policies), and their Markdown says "0 policy violations".
// `apply --plan` of that plan checks the same rules (the saved plan keeps them) on its fresh read,
// yet its JSON report had no `violations` at all and its Markdown no section: a script reading
// `report.violations` failed on the one command CI runs on merge. It now reports them as apply does.
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const validatePlan = createAjv().getSchema('plan.schema.json')!

const FILES = {
  'targets.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    scan_profile: normal\n',
  'rules.yaml': 'policies:\n  - name: target-has-profile\n    kind: target\n    require: {required: [scan_profile]}\n',
}

describe('apply --plan of a plan whose rules all hold', () => {
  it.each(['json', 'markdown'] as const)('reports no violation as plan and apply do (--format %s)', async (format) => {
    // What plan and a direct apply say about the rules.
    const direct = await cli(await emulator(), tempdir(FILES), ['apply', '.', '--auto-approve', '--format', format])
    expect(direct.code, direct.stderr).toBe(0)

    const em = await emulator()
    const dir = tempdir(FILES)
    const planned = await cli(em, dir, ['plan', '.', '--out', 'release.plan.json', '--format', format])
    expect(planned.code, planned.stderr).toBe(0)
    const saved = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve', '--format', format])
    expect(saved.code, saved.stderr).toBe(0)
    expect(em.get('target', '7QwErTy2UiOp')).toMatchObject({ scan_profile: { id: 'normal' } })

    for (const run of [planned, direct, saved]) {
      if (format === 'json') {
        const document = JSON.parse(run.stdout)
        expect(validatePlan(document), JSON.stringify(validatePlan.errors)).toBe(true)
        expect(document.violations).toEqual([])
      } else {
        expect(run.stdout).toContain('### Policy violations\n\n**0 policy violations: 0 errors, 0 warnings.**')
      }
    }
  })
})
