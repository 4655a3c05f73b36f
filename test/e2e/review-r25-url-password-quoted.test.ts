// Review round 25 (attack this round's late fixes): a live URL written https:/user:pw@host/ (one
// slash, a backslash, HTTPS: in capitals), which URL parsers read as https://user:pw@host/, is
// (sensitive) now; but its password was not taken as a secret, so another field quoting it (a
// description "login pw is …") printed it in clear in drift and plan, where the same URL written
// with two slashes made that field (sensitive).
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const PASSWORD = 'Sup3rPw-r25x'

const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop, url: "https://shop.example.com/", desc: "Customer shop"}
`

it.each(['text', 'json', 'markdown'])('a password of a live URL in a spelling URL parsers accept, quoted by another field, is not printed (--format %s)', async (format) => {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': CONFIG })
  expect((await cli(em, dir, ['apply', '--auto-approve'])).code).toBe(0)
  for (const url of [`https:/admin:${PASSWORD}@shop.example.com/`, `HTTPS:\\\\admin:${PASSWORD}@shop.example.com/`]) {
    em.mutate('target', '2DZkoZH8WMEM', { site: { url, desc: `login pw is ${PASSWORD}` } })
    const drift = await cli(em, dir, ['drift', '--format', format])
    expect(drift.code, drift.stderr).toBe(2)
    expect(drift.stdout).toContain('site.desc')
    expect(drift.stdout + drift.stderr).not.toContain(PASSWORD)
    const plan = await cli(em, dir, ['plan', '--format', format])
    expect(plan.stdout).toContain('site.desc')
    expect(plan.stdout + plan.stderr).not.toContain(PASSWORD)
  }
})

it('nor written by import', async () => {
  const em = await emulator()
  em.mutate('target', '2DZkoZH8WMEM', { site: { url: `https:/admin:${PASSWORD}@shop.example.com/`, desc: `login pw is ${PASSWORD}` } })
  const run = await cli(em, tempdir(), ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM'])
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout).toContain('2DZkoZH8WMEM')
  expect(run.stdout + run.stderr).not.toContain(PASSWORD)
})
