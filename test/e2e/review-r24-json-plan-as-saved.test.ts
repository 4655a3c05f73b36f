// Review round 24 (saved plans, staleness and the state file): the plan as `plan --format json`
// prints it, redirected to a file (`scansync plan --format json > release.plan.json`) and given to
// apply --plan, was refused as "not a scansync saved plan (/ must have required property 'kind')",
// which says neither what the file is nor how to save a plan. It now says both; nothing is sent.
import { expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli, emulator, EXAMPLE_SECRETS, exampleConfig, writes } from './helpers.js'

it('apply --plan with the output of plan --format json: named as such, with how to save a plan; nothing sent', async () => {
  const em = await emulator({ obfuscate: true })
  const dir = exampleConfig()
  const printed = await cli(em, dir, ['plan', '--format', 'json'], EXAMPLE_SECRETS)
  expect(printed.code, printed.stderr).toBe(0)
  writeFileSync(join(dir, 'release.plan.json'), printed.stdout)
  const run = await cli(em, dir, ['apply', '--plan', 'release.plan.json', '--auto-approve'], EXAMPLE_SECRETS)
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('release.plan.json is a plan as --format json prints it, not a saved plan: save one with scansync plan --out FILE')
  expect(writes(em)).toEqual([])
})
