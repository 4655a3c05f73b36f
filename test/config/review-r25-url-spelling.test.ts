// Review round 25 (URLs and values the service rewrites): a target whose URL names an
// internationalised host (`https://bücher.example/`) or holds a space or an accent in its path is
// refused (the service's `uri` format wants ASCII), but validate said only
//   site.url must be an absolute URL such as https://example.com/ (got "https://bücher.example/")
// which it already looks like, leaving the team to guess what is wrong. The error now says how to
// write the same URL so that it passes (the host in its xn-- form, other characters %-encoded),
// and that spelling is accepted and plans clean against the target it names.
import { expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

it('a URL refused for its spelling says how to write it', async () => {
  const yaml = (url: string, login: string) =>
    `targets:\n  - id: T1\n    site:\n      url: ${JSON.stringify(url)}\n      form_login_url: ${JSON.stringify(login)}\n`
  const dir = temporaryDirectory('scansync-r25-url-', { 'targets.yaml': yaml('https://Bücher.example/', 'https://shop.example.com/log in/café') })
  const run = await runCli(['validate', '.'], { cwd: dir, env: {} })
  expect(run.code).toBe(1)
  const lines = run.stderr.split('\n')
  expect(lines).toContain(
    'targets.yaml:4:12: target T1: site.url must be an absolute URL such as https://example.com/; write it "https://xn--bcher-kva.example/" (the host in its xn-- form, other characters %-encoded) (got "https://Bücher.example/")',
  )
  expect(lines).toContain(
    'targets.yaml:5:23: target T1: site.form_login_url must be an absolute URL such as https://example.com/; write it "https://shop.example.com/log%20in/caf%C3%A9" (the host in its xn-- form, other characters %-encoded) (got "https://shop.example.com/log in/café")',
  )
  // Not a URL at all, or from a variable: no spelling to offer (a variable's value is never shown).
  const other = temporaryDirectory('scansync-r25-url-', {
    'targets.yaml': 'targets:\n  - id: T1\n    site: {url: "shop.example.com"}\n  - id: T2\n    site: {url: "${BOOKS_URL}"}\n',
  })
  const refused = await runCli(['validate', '.'], { cwd: other, env: { BOOKS_URL: 'https://bücher.example/' } })
  expect(refused.stderr).toContain('target T1: site.url must be an absolute URL such as https://example.com/ (got "shop.example.com")')
  expect(refused.stderr).toContain('target T2: site.url must be an absolute URL such as https://example.com/ (got (sensitive))')
  expect(refused.stderr).not.toContain('xn--')
})

it('the spelling offered passes and plans clean once applied', { timeout: 60_000 }, async () => {
  const em = await emulator({ seed: exampleSeed() })
  const dir = tempdir({ 'targets.yaml': 'targets:\n  - site:\n      name: Books\n      url: "https://xn--bcher-kva.example/caf%C3%A9"\n' })
  const applied = await cli(em, dir, ['apply', '--auto-approve'])
  expect(applied.code).toBe(0)
  const plan = await cli(em, dir, ['plan', '--detailed-exitcode'])
  expect(plan.code).toBe(0)
  expect(plan.stdout).toContain('No changes.')
})
