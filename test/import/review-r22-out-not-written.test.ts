// Review round 22 (interruptions: signals, closed streams, a full disk): `import --out DIR` that
// could not write a file (a full disk, ENOSPC; a read-only folder; a link or a folder where the
// file goes, with --force) said "Error: unexpected failure: ENOSPC: no space left on device,
// write. Run again with --debug for details, and please report it." — a bug report asked for a
// full disk, and no word of which file was not written. It now names the file and why, as the
// saved plan and the secrets state do. (The disk cannot be filled in a test without mounting one:
// a link where the file goes fails the same write, through the same path.)
import { existsSync, mkdirSync, readlinkSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, tempDir } from './helpers.js'

it('import --out --force with a link where targets.yaml goes: names the file not written and why, no bug report asked for', async () => {
  const em = await emulator()
  const dir = tempDir()
  const out = join(dir, 'config')
  mkdirSync(out)
  symlinkSync(join(dir, 'elsewhere.yaml'), join(out, 'targets.yaml'))

  const result = await runCli(['import', '--kind', 'target', '--all', '--out', 'config', '--force'], { cwd: dir, env: connection(em) })

  expect(result.code).toBe(1)
  expect(result.stderr).not.toContain('unexpected failure')
  expect(result.stderr).not.toContain('please report it')
  expect(result.stderr).toContain(`Error: cannot write config/targets.yaml (${join(out, 'targets.yaml')} is a symbolic link: scansync writes its files whole, and neither writes through nor replaces anything else)`)
  // Left as it was, and nothing written through it.
  expect(readlinkSync(join(out, 'targets.yaml'))).toBe(join(dir, 'elsewhere.yaml'))
  expect(existsSync(join(dir, 'elsewhere.yaml'))).toBe(false)
})
