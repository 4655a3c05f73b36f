// A GitHub runner reads two forms of workflow command in every line a step prints: `::name::data`
// at the start of a line, and the older `##[name]data` anywhere in it (actions/runner,
// ActionCommand.TryParse). A value holding `##[stop-commands]…`, `##[add-mask]…` or
// `##[group]…` (a target's name in a pull request, an agent renamed in the web interface) was
// printed as it was, in a text plan, an apply's outcome lines, a drift's list of undeclared
// resources: the runner then stopped reading scansync's annotations, masked the rest of a line,
// or folded the log away. The output step writes the `[` of `##[` as `\u005b`, which a quoted
// value (and JSON) reads back as the same character.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

const NAME = 'Shop ##[stop-commands]tok ##[add-mask]x ##[group]g'
const AGENT = 'agent ##[error]forged'

const TARGETS = `targets:
  - id: 2DZkoZH8WMEM
    site:
      name: "${NAME}"
`

describe('the legacy `##[command]` form in output', () => {
  it('never reaches stdout or stderr, in any format or command; JSON reads the value back whole', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    seed.agents!.find((a) => a.id === '2PqRsT6uVwXy')!.name = AGENT
    const em = await emulator({ seed })
    const dir = tempdir({ 'targets.yaml': TARGETS })
    const runs = [
      ['plan'],
      ['plan', '--format', 'github'],
      ['drift', '--unmanaged'],
      ['drift', '--unmanaged', '--format', 'github'],
      ['drift', '--unmanaged', '--format', 'markdown'],
    ]
    for (const args of runs) {
      const run = await cli(em, dir, args)
      expect(run.stdout, args.join(' ')).toContain('2DZkoZH8WMEM')
      expect(run.stdout + run.stderr, args.join(' ')).not.toContain('##[')
    }
    const json = await cli(em, dir, ['drift', '--unmanaged', '--format', 'json'])
    const document = JSON.parse(json.stdout) as { changes: Array<{ fields: Array<{ path: string; after: unknown }> }>; unmanaged: Array<{ name: string }> }
    expect(document.changes[0]!.fields.find((f) => f.path === 'site.name')!.after).toBe(NAME)
    expect(document.unmanaged.map((u) => u.name)).toContain(AGENT)
    expect(json.stdout).not.toContain('##[')

    const applied = await cli(em, dir, ['apply', '--auto-approve', '--format', 'github'])
    expect(applied.code).toBe(0)
    expect(applied.stdout).toContain('✓ target 2DZkoZH8WMEM')
    expect(applied.stdout + applied.stderr).not.toContain('##[')
  })

  it('import on stdout writes such a value so that it reads back whole: plan right after it has nothing to do', { timeout: 60_000 }, async () => {
    const seed = exampleSeed()
    const asset = seed.assets!.find((a) => a.id === '8YuIoP3lKjHg')!
    asset.comment = 'line one\n##[group]folded\nline three'
    const em = await emulator({ seed })
    const imported = await cli(em, tempdir(), ['import', '--kind', 'asset', '--id', '8YuIoP3lKjHg'])
    expect(imported.code).toBe(0)
    expect(imported.stdout).not.toContain('##[')
    const dir = tempdir()
    writeFileSync(join(dir, 'assets.yaml'), imported.stdout)
    const plan = await cli(em, dir, ['plan', '--detailed-exitcode'])
    expect(plan.stdout).toContain('No changes.')
    expect(plan.code).toBe(0)
  })
})
