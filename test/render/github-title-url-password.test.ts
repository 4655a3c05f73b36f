// A workflow command's title encodes `:` as %3A (GitHub's escaping of a property), so a URL in it
// (`https%3A//admin%3Apw@host`) no longer looks like a URL to the output step, which hides every
// URL's password in every printed text. A title names the resource; a name holding a URL with a
// password is left out of it (render/rows.ts), whether the service holds it or the YAML writes it.
import { describe, expect, it } from 'vitest'
import { apply, emulator, exampleSeed, plan, tempdir } from '../e2e/helpers.js'

const PASSWORD = 'Pw4UrlInName'
const NAME = `Shop https://admin:${PASSWORD}@shop.example.com/`
const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site:
      desc: Changed by the pull request
`
const NAMING = CONFIG.replace('    site:\n', `    site:\n      name: "${NAME}"\n`)

async function withNamedTarget() {
  const seed = exampleSeed()
  seed.targets![0]!.site!.name = NAME
  return emulator({ seed })
}

describe('a name holding a URL with a password, in a GitHub annotation title', () => {
  it('plan --format github hides the password the service holds', async () => {
    const em = await withNamedTarget()
    const run = await plan(em, tempdir({ 'targets.yaml': CONFIG }), { format: 'github' })
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('title=scansync plan%3A target 2DZkoZH8WMEM::')
    expect(run.out + run.err).not.toContain(PASSWORD)
  })

  it('drift and apply --format github hide it too, and so does plan when the YAML writes it', async () => {
    const em = await withNamedTarget()
    const dir = tempdir({ 'targets.yaml': CONFIG })
    const drift = await plan(em, dir, { mode: 'drift', format: 'github' })
    expect(drift.out).toContain('::error')
    expect(drift.out + drift.err).not.toContain(PASSWORD)
    const applied = await apply(em, dir, { format: 'github' })
    expect(applied.code, applied.err).toBe(0)
    expect(applied.out + applied.err).not.toContain(PASSWORD)
    const written = await plan(await emulator(), tempdir({ 'targets.yaml': NAMING }), { format: 'github' })
    expect(written.out).toContain('::warning')
    expect(written.out + written.err).not.toContain(PASSWORD)
  })
})
