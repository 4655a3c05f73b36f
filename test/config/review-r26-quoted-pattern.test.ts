// A pattern quoted so that the shell did not expand it (`scansync validate 'config/*.yaml'`, a CI
// step's "$FILES", a Windows shell) reaches scansync as the name of a file, and was answered
// "config/*.yaml:1:1: no such file or directory", while `ls config/*.yaml` lists files. It is now
// said to be an unexpanded pattern, with the folder to name instead.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

describe('a quoted pattern as PATH', () => {
  it('is said to be a pattern the shell did not expand, with the folder to name', async () => {
    const dir = temporaryDirectory('scansync-r26-pattern-', {})
    mkdirSync(join(dir, 'config'))
    writeFileSync(join(dir, 'config', 'agents.yaml'), 'agents: []\n')
    const run = await runCli(['validate', 'config/*.yaml'], { cwd: dir, env: {} })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      'config/*.yaml:1:1: no such file or directory (the shell did not expand the pattern: leave it unquoted, or name the folder: scansync finds its YAML files itself, e.g. config)',
    )
    const here = await runCli(['validate', '*.yml'], { cwd: join(dir, 'config'), env: {} })
    expect(here.stderr).toContain('*.yml:1:1: no such file or directory (the shell did not expand the pattern: leave it unquoted, or name the folder: scansync finds its YAML files itself)')
    // A name with no pattern in it keeps its words.
    expect((await runCli(['validate', 'nothere'], { cwd: dir, env: {} })).stderr).toContain('nothere:1:1: no such file or directory\n')
  })
})
