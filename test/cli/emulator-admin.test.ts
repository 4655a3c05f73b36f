// A change "by hand" in the emulator (issue 17, friction): the admin endpoint, then drift reports it.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, TOKEN } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

const handEdit = (url: string, path: string, body: unknown, token = TOKEN) =>
  fetch(`${url}/_emulator${path}`, { method: 'PATCH', headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

describe.concurrent('PATCH /_emulator/…', () => {
  it('changes a resource as the web user would; drift then reports it', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    expect((await cli(em, dir, ['apply', '.', '--auto-approve'])).code).toBe(0)
    expect((await cli(em, dir, ['drift', '.'])).code).toBe(0)
    const response = await handEdit(em.url, '/scanning-agents/3kLx8Qy7Pb2m/', { name: 'renamed-by-hand' })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { name: string }).name).toBe('renamed-by-hand')
    const drift = await cli(em, dir, ['drift', '.'])
    expect(drift.code).toBe(2)
    expect(drift.stdout).toContain('"renamed-by-hand"')
  })

  it('needs the token, a known id and a JSON object', async () => {
    const em = await emulator()
    expect((await handEdit(em.url, '/targets/2DZkoZH8WMEM/', { site: { name: 'x' } }, 'wrong')).status).toBe(401)
    expect((await handEdit(em.url, '/targets/NoSuchTarget/', { site: { name: 'x' } })).status).toBe(404)
    expect((await handEdit(em.url, '/targets/2DZkoZH8WMEM/', ['x'])).status).toBe(400)
    expect((await handEdit(em.url, '/nowhere/', {})).status).toBe(404)
  })

  it('is shown in emulator --help', async () => {
    const { stdout } = await runCli(['emulator', '--help'])
    expect(stdout).toContain('/_emulator/targets/')
  })
})
