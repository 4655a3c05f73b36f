// Review round 24 (configuration files as editors and operating systems write them): a carriage
// return not followed by a line feed is a line break to YAML (1.2, b-break) and to editors, which
// show it as one. Such files come from CRLF text written again in text mode on Windows (every line
// `\r\r\n`), from `printf %s "$(cat file)"` (the final `\n` of a CRLF file dropped, its `\r` kept),
// and from classic Mac line ends. The precise YAML reader took the `\r` into the value before it:
//   bytes  'assets:\r\n  - id: 9fGh2Kd8LmQz\r\n    comment: Decommissioned\r'
//   plan   comment: "" -> "Decommissioned\r"   (and apply sent the `\r` to the service)
// while a CR-only or `\r\r\n` file was refused with errors naming the wrong line and a wrong cause
// ("this key is indented more than the keys before it"). A line end is now a line end, whichever.
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const LINES = ['assets:', '  - id: 9fGh2Kd8LmQz', '    comment: Decommissioned', '    state: ARCHIVED']

it('a carriage return alone ends a line, as a line feed or a CRLF does: the plan is the same', async () => {
  const em = await emulator()
  const plans: string[] = []
  for (const text of [
    LINES.join('\n') + '\n',
    LINES.join('\r\n') + '\r',
    LINES.join('\r\r\n') + '\r\r\n',
    LINES.join('\r') + '\r',
    LINES.join('\r\n') + '\r\r\n',
  ]) {
    const dir = tempdir({ 'assets.yaml': text })
    const run = await cli(em, dir, ['plan', '--format', 'json'])
    expect(run.code, run.stderr + JSON.stringify(text)).toBe(0)
    expect(run.stdout).not.toContain('\\r')
    plans.push(run.stdout)
  }
  expect(plans[0]).toContain('"Decommissioned"')
  for (const plan of plans) expect(plan).toBe(plans[0])
})

it('an error in a file with doubled carriage returns names the line an editor shows', async () => {
  const em = await emulator()
  // An editor shows `\r\r\n` as two line ends: `state: NOPE` is on line 5.
  const dir = tempdir({ 'assets.yaml': ['assets:', '  - id: 9fGh2Kd8LmQz', '    state: NOPE'].join('\r\r\n') + '\r\r\n' })
  const run = await cli(em, dir, ['validate'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('assets.yaml:5:12: asset 9fGh2Kd8LmQz: state must be one of')
  expect(run.stderr).not.toContain('indented more')
})
