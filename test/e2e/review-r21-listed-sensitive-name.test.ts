// Review round 21 (four formats, one story): a resource whose name is hidden (it comes from a
// ${VARIABLE}) is headed by its id alone in the text plan and in github annotations
// (`~ target 2DZkoZH8WMEM`), and its name is `(sensitive)` in the JSON and Markdown name columns.
// In the lists drift adds (declared resources gone from the service, live resources no file
// declares) text and github printed it as a quoted name, `! target GoneGone1234 "(sensitive)"`:
// the spelling of a resource literally named "(sensitive)". They now head it as the plan does.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const CONFIG = `targets:
  - id: 7QwErTy2UiOp
  - id: GoneGone1234
    site:
      name: "\${GONE_NAME}"
  - id: 2DZkoZH8WMEM
    site:
      name: "\${SHOP_NAME}"
`

const SECRETS = { GONE_NAME: 'Gone-Name-8Kq3wZ', SHOP_NAME: 'Shop-Name-8Kq3wZ' }

describe('drift: a listed resource whose name comes from a variable', () => {
  it('text and github head it by its id, as they head a changed one; json and markdown say (sensitive) as for a change', async () => {
    const em = await emulator()
    const dir = tempdir({ 'c.yaml': CONFIG })
    const text = await cli(em, dir, ['drift', '.'], SECRETS)
    expect(text.code, text.stderr).toBe(2)
    // The changed one, by its id alone; the gone one the same way.
    expect(text.stdout).toMatch(/^~ target 2DZkoZH8WMEM \(drifted\)$/m)
    expect(text.stdout).toMatch(/^! target GoneGone1234 \(declared at c\.yaml:3\)$/m)
    expect(text.stdout).not.toContain('"(sensitive)"')

    const github = await cli(em, dir, ['drift', '.', '--format', 'github'], SECRETS)
    expect(github.code, github.stderr).toBe(2)
    expect(github.stdout).toContain('title=scansync drift%3A target 2DZkoZH8WMEM::')
    expect(github.stdout).toContain('title=scansync drift%3A gone from the service::target GoneGone1234 is declared here, but the service no longer has it')
    expect(github.stdout).not.toContain('"(sensitive)"')

    const json = await cli(em, dir, ['drift', '.', '--format', 'json'], SECRETS)
    expect(json.code, json.stderr).toBe(2)
    const document = JSON.parse(json.stdout)
    expect(document.changes.map((c: { id: string; name: string }) => [c.id, c.name])).toEqual([['2DZkoZH8WMEM', '(sensitive)']])
    expect(document.missing.map((m: { id: string; name: string }) => [m.id, m.name])).toEqual([['GoneGone1234', '(sensitive)']])

    const markdown = await cli(em, dir, ['drift', '.', '--format', 'markdown'], SECRETS)
    expect(markdown.code, markdown.stderr).toBe(2)
    expect(markdown.stdout).toContain('| ~ | target | <code>2DZkoZH8WMEM</code> | (sensitive) |')
    expect(markdown.stdout).toContain('| ! | target | <code>GoneGone1234</code> | (sensitive) |')

    for (const run of [text, github, json, markdown]) expect(run.stdout + run.stderr).not.toContain('8Kq3wZ')
  })
})
