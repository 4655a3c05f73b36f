// Review round 21 (a repository lived in for a year): a plan saved (`plan --out`) on an older
// commit, applied after the configuration folder was renamed (config/ -> scansync/). apply --plan
// finds the secrets state beside the configuration the plan was made from; with that folder gone,
// it recorded the secret it sent in a new .scansync/state.json one folder up, which no plan, apply
// or drift reads: the next drift reported the secret just applied as drift. It now refuses before
// sending anything, saying what to do; --state FILE still applies it.
import { cpSync, existsSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, ROOT, tempdir } from '../e2e/helpers.js'

describe('a saved plan whose configuration folder was renamed since', () => {
  it('is refused before anything is sent, and applies with --state pointing at the moved state', async () => {
    const em = await emulator({ obfuscate: true })
    const repo = tempdir()
    cpSync(join(ROOT, 'examples', 'config'), join(repo, 'config'), { recursive: true })
    expect((await cli(em, repo, ['apply', '--auto-approve', 'config'], EXAMPLE_SECRETS)).code).toBe(0)
    const rotated = { ...EXAMPLE_SECRETS, SHOP_BASIC_AUTH_PASSWORD: 'rotated-Secret-8a1c4e' }
    const saved = await cli(em, repo, ['plan', 'config', '--out', 'release.plan.json'], rotated)
    expect(saved.code).toBe(0)
    renameSync(join(repo, 'config'), join(repo, 'scansync'))

    em.clearRequests()
    const refused = await cli(em, repo, ['apply', '--plan', 'release.plan.json', '--auto-approve'], rotated)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('config')
    expect(refused.stderr).toContain('--state')
    expect(refused.stderr).toContain('Nothing was sent.')
    expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
    expect(existsSync(join(repo, '.scansync'))).toBe(false)

    const state = join(repo, 'scansync', '.scansync', 'state.json')
    const applied = await cli(em, repo, ['apply', '--plan', 'release.plan.json', '--auto-approve', '--state', state], rotated)
    expect(applied.code).toBe(0)
    expect(existsSync(join(repo, '.scansync'))).toBe(false)
    const after = await cli(em, repo, ['drift', 'scansync'], rotated)
    expect(after.stdout).toContain('No drift.')
    expect(after.code).toBe(0)
    expect(readFileSync(state, 'utf8')).not.toContain('rotated-Secret-8a1c4e')
  })
})
