import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseBlockYaml } from '../../src/config/block-yaml.js'
import { parseYamlFile } from '../../src/config/read-yaml.js'
import type { Plan } from '../../src/plan/model.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, importRun, planRun, secretEnv, tempDir, validateRun } from './helpers.js'

// Review round 17 (import): a live text made of blank lines holding spaces (an API login payload
// " \n", a description "\n  \n") was written as a block scalar `|+` whose lines are all indentation:
// it read back without its spaces, and the plan right after the import showed " \n" -> "\n".
function seed(payload: string, desc: string): EmulatorSeed {
  const seed = exampleSeed()
  const api = seed.targets!.find((t) => t.id === '5HnBvC3xZaQw')!
  Object.assign((api.site as { api_scan_settings: object }).api_scan_settings, { api_login_payload: payload, api_login_payload_is_sensitive: false })
  seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!.site!.desc = desc
  return seed
}

describe('import: a text of blank lines holding spaces', () => {
  for (const [payload, desc] of [[' \n', '\n  \n'], [' \n \n', ' \t\n'], [' \n\n', '  \n  \n']]) {
    it(`reads back as it is and plans clean (${JSON.stringify(payload)}, ${JSON.stringify(desc)})`, async () => {
      const em = await emulator({ seed: seed(payload, desc) })
      const dir = tempDir()
      const run = await importRun(em, { all: true, out: dir })
      expect(run.code, run.err).toBe(0)
      const text = readFileSync(join(dir, 'targets.yaml'), 'utf8')
      const data = parseYamlFile('targets.yaml', Buffer.from(text), { fastPath: false }).parsed?.data as { targets: Array<{ id: string; site?: { desc?: string }; api_scan_settings?: { api_login_payload?: string } }> }
      expect(parseBlockYaml(text)?.data ?? data).toStrictEqual(data)
      expect(data.targets.find((t) => t.id === '5HnBvC3xZaQw')?.api_scan_settings?.api_login_payload).toBe(payload)
      expect(data.targets.find((t) => t.id === '2DZkoZH8WMEM')?.site?.desc).toBe(desc)
      const env = secretEnv(em, run.err)
      const plan = await planRun(em, dir, env, 'json')
      expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
      expect((await validateRun(dir, env)).code).toBe(0)
    })
  }
})
