// A configuration holding a symbolic link whose target is missing (a link into a git submodule
// the CI checkout did not fetch, a shared file since moved) said `config/shared.yaml:1:1: cannot
// read the file: ENOENT` about a file that `ls` lists, and the same with ELOOP for two links
// naming each other. The error now says it is a link, to what, and why it was not read.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

describe('a broken symbolic link in the configuration', () => {
  it('is an error saying where it leads, not a bare ENOENT or ELOOP', async () => {
    const dir = temporaryDirectory('scansync-r18-links-', { 'config/agents.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ok\n' })
    symlinkSync('../vendor/common/shared.yaml', join(dir, 'config', 'shared.yaml'))
    symlinkSync('b.yaml', join(dir, 'config', 'a.yaml'))
    symlinkSync('a.yaml', join(dir, 'config', 'b.yaml'))
    const run = await runCli(['validate', 'config'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')).toEqual([
      'config/a.yaml:1:1: a symbolic link to b.yaml, which leads back to itself (a loop of symbolic links); it was not read',
      'config/b.yaml:1:1: a symbolic link to a.yaml, which leads back to itself (a loop of symbolic links); it was not read',
      'config/shared.yaml:1:1: a symbolic link to ../vendor/common/shared.yaml, which does not exist (moved, or in a git submodule not checked out?); it was not read',
      '3 errors; nothing was sent.',
      '',
    ])
  })
})
