// Review round 24 (configuration files as editors and operating systems write them): the column
// of a byte that is not UTF-8 was counted otherwise than every other column the loader gives.
// A byte order mark (Notepad's "UTF-8 with BOM") counted as a column of line 1, and a character
// beyond the BMP (an emoji) as one, where the positions of all other errors (and editors, and a
// PR annotation's col=) count it as two UTF-16 units and do not count the BOM:
//   bytes EF BB BF 't' 'a' … 'targets: ' FF 0A      -> validate said 1:11, `targets: 5` says 1:10
//   bytes '  - id: "' F0 9F 98 80 '" ' FF 0A         -> validate said 2:13, the byte is at 2:14
// and a carriage return alone (which ends a line for the YAML reader and editors) did not end one.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

it('the column of a byte that is not UTF-8 is counted as every other column is', async () => {
  const dir = temporaryDirectory('scansync-r24-bytes-', {})
  const bom = Buffer.from([0xef, 0xbb, 0xbf])
  writeFileSync(join(dir, 'a.yaml'), Buffer.concat([bom, Buffer.from('targets: '), Buffer.from([0xff]), Buffer.from('\n')]))
  writeFileSync(join(dir, 'b.yaml'), Buffer.concat([bom, Buffer.from('targets: 5\n')]))
  writeFileSync(join(dir, 'c.yaml'), Buffer.concat([Buffer.from('targets:\n  - id: "\u{1F600}" '), Buffer.from([0xff]), Buffer.from('\n')]))
  writeFileSync(join(dir, 'd.yaml'), Buffer.from('targets:\n  - id: "\u{1F600}" 5\n'))
  // Classic Mac line ends: the byte is on line 3, as the YAML reader would count it.
  writeFileSync(join(dir, 'e.yaml'), Buffer.concat([Buffer.from('targets:\r  - id: T1\r    comment: '), Buffer.from([0xff]), Buffer.from('\r')]))
  const run = await runCli(['validate', '.'], { cwd: dir, env: {} })
  expect(run.code).toBe(1)
  const lines = run.stderr.split('\n')
  expect(lines).toContain('a.yaml:1:10: the file is not valid UTF-8 text')
  expect(lines).toContain('b.yaml:1:10: targets must be a list or null (got an integer)')
  expect(lines).toContain('c.yaml:2:14: the file is not valid UTF-8 text')
  expect(lines).toContain('e.yaml:3:14: the file is not valid UTF-8 text')
  // The same place, as the YAML reader counts it.
  expect(lines.find((line) => line.startsWith('d.yaml:'))).toMatch(/^d\.yaml:2:14: /)
})
