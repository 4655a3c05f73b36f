// A wrong base URL is said to be one (issue 17, bug 8): every read a 404 is not "wrong ids".
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from '../e2e/helpers.js'

describe.concurrent('every read of a run is a 404', () => {
  it('plan says the base URL is probably wrong and shows the URL tried', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const { code, stderr } = await cli(em, dir, ['plan', '.'], { SCANSYNC_API_URL: `${em.url}/api/v1` })
    expect(code).toBe(1)
    expect(stderr).toMatch(/base URL|service URL .* is probably wrong/)
    expect(stderr).toContain(`${em.url}/api/v1/`)
    expect(stderr).not.toMatch(/check the id/i)
  })

  it('one unknown id among known ones is still named as an id', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    writeFileSync(join(dir, 'more-agents.yaml'), 'agents:\n  - id: 9ZzZzZzZzZzZ\n    name: gone\n')
    const { code, stderr } = await cli(em, dir, ['plan', '.'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/agent 9ZzZzZzZzZzZ not found/)
    expect(stderr).not.toMatch(/probably wrong/)
  })

  it('import says so too', async () => {
    const em = await emulator()
    const { code, stderr } = await cli(em, exampleConfig(), ['import', '--kind', 'agent', '--all'], { SCANSYNC_API_URL: `${em.url}/api/v1` })
    expect(code).toBe(1)
    expect(stderr).toMatch(/service URL .* is probably wrong/)
    expect(stderr).toContain(`${em.url}/api/v1/scanning-agents/`)
  })
})
