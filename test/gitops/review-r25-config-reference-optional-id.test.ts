// Review round 25 (every claim in the project's own docs is true today): docs/config-reference.md
// opened with "Every field but `id` is optional", though since targets are found by their URL and
// agents by their name an `id` is required of assets alone (its table says **Required.**), and a
// target or an agent without one needs what identifies it instead. It also said folders whose name
// starts with `.` are skipped; files are too. The words now say what `scansync validate` does.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'
// @ts-expect-error plain JavaScript script, run without a build
import * as reference from '../../scripts/config-reference.js'

beforeAll(ensureBuilt, 120_000)

const { referenceText } = reference as { referenceText(): string }
const intro = (): string => referenceText().split('## Contents')[0]!

describe('docs/config-reference.md: what must be written', () => {
  it('does not say every resource needs an id, and says what identifies one without it', () => {
    expect(intro()).not.toContain('Every field but `id` is optional')
    expect(intro()).toContain('A target without `id` is identified by\n  its `site.url`')
    expect(intro()).toContain('an agent without `id` by its `name`')
  })

  it('as validate has it: a target and an agent without id are valid, an asset without id is not; a file starting with . is skipped', async () => {
    const withoutIds = tempdir({
      'targets.yaml': 'targets:\n  - site:\n      name: Shop (new)\n      url: https://new.example.com/\n',
      'agents.yaml': 'agents:\n  - name: dc-porto-agent\n',
      '.hidden.yaml': 'assets:\n  - comment: never read\n',
    })
    const valid = await runCli(['validate', withoutIds], { env: { NO_COLOR: '1' } })
    expect(valid.stderr).toBe('')
    expect(valid.code).toBe(0)

    const asset = tempdir({ 'assets.yaml': 'assets:\n  - name: legacy.example.com\n' })
    const invalid = await runCli(['validate', asset], { env: { NO_COLOR: '1' } })
    expect(invalid.stderr).toContain('missing required field "id"')
    expect(invalid.code).toBe(1)
    expect(referenceText()).toMatch(/## assets[\s\S]*\| `id` \| string \| not empty \| {2}\| \*\*Required\.\*\*/)
  })

  it('says files starting with . are skipped, not only folders', () => {
    expect(intro()).toContain('skipping files and folders whose name starts with `.`')
  })
})
