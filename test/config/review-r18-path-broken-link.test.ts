// The configuration directory itself may be a symbolic link (config -> vendor/security/scansync, a
// git submodule). When the CI checkout did not fetch the submodule, scansync plan config said
// "config:1:1: no such file or directory" about a name ls lists: the fix for links inside the
// configuration did not reach the PATH argument. It is now said to be a symbolic link, to what,
// and why it was not read, as for a file in the configuration.
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

describe('a PATH that is a symbolic link whose target is missing or loops', () => {
  it('is named as a link, with its target, in validate and plan', async () => {
    const dir = temporaryDirectory('scansync-r18-path-link-', {})
    mkdirSync(join(dir, 'vendor'))
    symlinkSync(join('vendor', 'security'), join(dir, 'config'))
    symlinkSync('loop', join(dir, 'loop'))
    for (const command of ['validate', 'plan']) {
      const run = await runCli([command, 'config'], { cwd: dir, env: { SCANSYNC_API_URL: 'http://127.0.0.1:9/', SCANSYNC_API_TOKEN: 'tok' } })
      expect(run.code, command).toBe(1)
      expect(run.stderr, command).toContain('config:1:1: a symbolic link to vendor/security, which does not exist (moved, or in a git submodule not checked out?); it was not read')
    }
    const loop = await runCli(['validate', 'loop'], { cwd: dir, env: {} })
    expect(loop.stderr).toContain('loop:1:1: a symbolic link to loop, which leads back to itself (a loop of symbolic links); it was not read')
    // A name that is not there at all keeps its words.
    expect((await runCli(['validate', 'nothere'], { cwd: dir, env: {} })).stderr).toContain('nothere:1:1: no such file or directory')
  })
})
