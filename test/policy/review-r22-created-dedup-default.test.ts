// The interface document gives `include_deduplicated_endpoints` no default ("boolean, null; true:
// scans include deduplicated endpoints; false or null: they are excluded"), and the service
// answers a target created without it with null. The schemas gave it `default: false`, so the
// rules saw a target to create holding false where the created target holds nothing: a rule
// requiring the field passed on the pull request's plan, and the plan after the apply (and the
// nightly audit) failed on the target just created, with no change to the files.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

const CONFIG = `targets:
  - site: {name: Fresh, url: "https://fresh.example.com/"}
policies:
  - name: dedup-decided
    description: Every target says whether deduplicated endpoints are scanned
    kind: target
    require: {required: [include_deduplicated_endpoints]}
`

beforeAll(async () => {
  await ensureBuilt()
}, 120_000)

describe('a rule about include_deduplicated_endpoints on a target to create', () => {
  it('sees the target as the service holds it once created: the plan before the apply and the one after agree', async () => {
    const em = await emulator({ seed: {} })
    const dir = tempdir({ 'config.yaml': CONFIG })
    const before = await cli(em, dir, ['plan', '.'])
    expect(before.stderr).toContain("policy dedup-decided:")
    expect(before.stderr).toContain("must have required property 'include_deduplicated_endpoints'")
    expect(before.code).toBe(1)
    // Created anyway (the rule made a warning), the target breaks the rule as the plan said.
    const warning = tempdir({ 'config.yaml': CONFIG.replace('    require:', '    level: warning\n    require:') })
    expect((await cli(em, warning, ['apply', '.', '--auto-approve'])).code).toBe(0)
    const after = await cli(em, dir, ['plan', '.'])
    expect(after.stderr).toContain("must have required property 'include_deduplicated_endpoints'")
    expect(after.code).toBe(1)
  })
})
