// `scansync init --help` said each file starts "with the yaml-language-server schema line", and
// `import --help` that "each file starts with a yaml-language-server line pointing at the
// package's schemas/config.schema.json": outside a repository holding a copy of scansync (a
// global install, npx from elsewhere) both write instead a comment saying how to get one (the
// README, "Editor completion", says so). The help now says what the command writes in both cases.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { emulator, envFor } from '../e2e/helpers.js'

const created: string[] = []
afterAll(() => created.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const tempdir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'scansync-r19-help-'))
  created.push(dir)
  return dir
}
/** The DESCRIPTION of `scansync COMMAND --help`, its lines joined. */
const description = async (command: string) => {
  const { stdout } = await runCli([command, '--help'])
  return (stdout.split('\nDESCRIPTION\n')[1] ?? '').split('\nEXAMPLES\n')[0].replace(/\s+/g, ' ')
}
const firstLine = (file: string) => readFileSync(file, 'utf8').split('\n')[0]

describe.concurrent('the help says what the first line of a written file is', () => {
  it('init, in a directory of no project holding scansync', async () => {
    const cwd = tempdir()
    expect((await runCli(['init', 'config', '-q'], { cwd, env: {} })).code).toBe(0)
    for (const name of ['targets.yaml', 'assets.yaml', 'agents.yaml']) expect(firstLine(join(cwd, 'config', name))).toMatch(/^# Editor schema: install scansync in this repository/)
    const help = await description('init')
    expect(help).not.toMatch(/each starting with the yaml-language-server schema line and/)
    expect(help).toMatch(/without one, a comment saying how to get it/)
  })

  it('import --out, in a directory of no project holding scansync', async () => {
    const em = await emulator()
    const cwd = tempdir()
    expect((await runCli(['import', '--kind', 'agent', '--all', '--out', 'config'], { cwd, env: envFor(em) })).code).toBe(0)
    expect(firstLine(join(cwd, 'config', 'agents.yaml'))).toMatch(/^# Editor schema: install scansync in this repository/)
    const help = await description('import')
    expect(help).not.toMatch(/Each file starts with a yaml-language-server line pointing at the package's/)
    expect(help).toMatch(/without one, a comment saying how to get it/)
  })
})
