// Review round 26 (every error message, read once): `import --kind asset --id 2DZkoZH8WMEM` (a
// target's id, or a mistyped one) ended with 'Error: asset 2DZkoZH8WMEM not found' and nothing
// more, where plan, meeting a declared id the service does not have, names the command that lists
// the ids the service has. Import now says the same after its error.
import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { beforeAll } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

describe('import --id of an id the service does not have', () => {
  it('names the command that lists the ids of that kind; exit 1, nothing written', async () => {
    const em = await emulator()
    const dir = tempdir()
    const one = await cli(em, dir, ['import', '--kind', 'asset', '--id', '2DZkoZH8WMEM'])
    expect(one.code).toBe(1)
    expect(one.stdout).toBe('')
    expect(one.stderr).toBe('Error: asset 2DZkoZH8WMEM not found\nTo list the ids the service has, run: scansync import --kind asset --all\n')
    const two = await cli(em, dir, ['import', '--kind', 'target', '--id', 'nope1,nope2'])
    expect(two.code).toBe(1)
    expect(two.stderr).toContain('target nope1 not found')
    expect(two.stderr.trimEnd().split('\n').at(-1)).toBe('To list the ids the service has, run: scansync import --kind target --all')
  })

  it('a wrong service URL (every read a 404) is still said as such, without the hint', async () => {
    const em = await emulator()
    const result = await cli(em, tempdir(), ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM'], { SCANSYNC_API_URL: `${em.url}/api/v9` })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('the service URL')
    expect(result.stderr).not.toContain('To list the ids')
  })
})
