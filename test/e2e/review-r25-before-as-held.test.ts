// Review round 25 (URLs and values the service rewrites): a changed field's value before was shown
// in the form the comparison reads it, not as the service holds it. A check-session URL typed in
// the web interface as `https://Bücher.Example:443/../Session` planned as
//   site.check_session_url: "https://xn--bcher-kva.example/Session" -> "https://bücher.example/check"
// (and so in JSON's `before`, and in drift's report of the hand change): a value the service does
// not hold, with a host the team never wrote. The value before is now the live text as it is.
import { expect, it } from 'vitest'
import { cli, emulator, exampleSeed, tempdir } from './helpers.js'

it('the value before a change is the text the service holds', { timeout: 60_000 }, async () => {
  const held = 'https://Bücher.Example:443/../Session'
  const seed = exampleSeed()
  const staging = seed.targets!.find((t) => t.id === '7QwErTy2UiOp')! as { site: Record<string, unknown> }
  staging.site = { ...staging.site, check_session_url: held }
  const em = await emulator({ seed })
  const wanted = 'https://bücher.example/check'
  const dir = tempdir({ 'targets.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    site:\n      check_session_url: "${wanted}"\n` })

  const text = await cli(em, dir, ['plan', '--detailed-exitcode'])
  expect(text.code, text.stderr).toBe(2)
  expect(text.stdout).toContain(`site.check_session_url: "${held}" -> "${wanted}"`)
  const json = await cli(em, dir, ['plan', '--format', 'json'])
  const fields = (JSON.parse(json.stdout) as { changes: Array<{ fields: Array<{ path: string; before: unknown; after: unknown }> }> }).changes[0]!.fields
  expect(fields).toContainEqual(expect.objectContaining({ path: 'site.check_session_url', before: held, after: wanted }))
  const drift = await cli(em, dir, ['drift'])
  expect(drift.stdout).toContain(`"${held}"`)
  expect(drift.stdout).not.toContain('xn--')

  // The same URL in another spelling is still no change.
  const same = tempdir({ 'targets.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    site:\n      check_session_url: "https://xn--bcher-kva.example/Session"\n` })
  expect((await cli(em, same, ['plan', '--detailed-exitcode'])).code).toBe(0)
})
