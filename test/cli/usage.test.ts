// The command line's manners (issue 17, friction): one error style, suggestions for mistyped
// commands and flags without a usage dump, `scansync version`, errors that name the variable.
import { Config } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir } from '../e2e/helpers.js'
import { ROOT, runCli, spawnCli } from '../helpers/cli.js'

const oneError = (stderr: string) => {
  expect(stderr).toMatch(/^Error: /)
  expect(stderr).not.toContain('›')
  expect(stderr).not.toContain('USAGE')
  expect(stderr.trimEnd().split('\n')).toHaveLength(1)
}

describe.concurrent('mistyped commands and flags', () => {
  it.each([
    [['plann'], /^Error: unknown command "plann"; did you mean "plan"\?/],
    [['aply'], /did you mean "apply"\?/],
    [['plan', '--fromat', 'json'], /^Error: unknown flag --fromat \(did you mean --format\?\)\. See scansync plan --help\./],
    [['plan', 'examples/config', '--fromat=json'], /^Error: unknown flag --fromat=\(redacted\) \(did you mean --format\?\)/],
    [['validate', '--qiet'], /did you mean --quiet\?/],
    [['plan', '--kind', 'agnet'], /^Error: Expected --kind=agnet to be one of: target, asset, agent\. See scansync plan --help\./],
    [['import', '--all'], /^Error: --kind is required\. See scansync import --help\./],
    // A new user's review: oclif's "arg:" and its argument's line were joined as "arg:: shell  (bash|zsh)".
    [['completion'], /^Error: Missing 1 required arg: shell \(bash\|zsh\) The shell\. See scansync completion --help\.\n$/],
    // The words after a command oclif cannot take are its arguments, not a longer command's name.
    [['schema', 'extra'], /^Error: Unexpected argument: extra\. See scansync schema --help\.\n$/],
    [['pln', 'config'], /^Error: unknown command "pln"; did you mean "plan"\? See scansync --help for the commands\.\n$/],
    [['xyzzy'], /^Error: unknown command "xyzzy"\. See scansync --help for the commands\.\n$/],
    [['plan', '.', '--id', '2DZkoZH8WMEM,'], /^Error: --id holds an empty id: write ids separated by single commas, with none at the start or the end\. See scansync plan --help\.\n$/],
    [['import', '--kind', 'target', '--id', '2DZkoZH8WMEM,'], /^Error: --id holds an empty id: write ids separated by single commas, with none at the start or the end\. See scansync import --help\.\n$/],
    [['schema', 'http://x.example/a'], /^Error: Unexpected argument: http:\/\/x\.example\/a\. See scansync schema --help\.\n$/],
  ])('%j: one line, a suggestion, exit 1', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    oneError(stderr)
    expect(stderr).toMatch(message)
  })

  // A review of the twelfth round's release: the token was redacted here, the state key printed.
  it('a usage error never prints the state key (nor the token), wherever it was typed', async () => {
    const key = 'State-Key-Long-Random-77aa41'
    for (const args of [['plan', '--format', key], ['plan', '--kind', key], [key], ['import', '--kind', key]]) {
      const { code, stderr } = await spawnCli(args, { env: { SCANSYNC_STATE_KEY: key, SCANSYNC_API_TOKEN: 'Token-Long-Random-5531' } })
      expect(code).toBe(1)
      expect(stderr).not.toContain(key)
      expect(stderr).toContain('(redacted)')
    }
  })

  it('scansync version prints what --version prints', async () => {
    const [command, flag] = await Promise.all([runCli(['version']), runCli(['--version'])])
    expect(command.code).toBe(0)
    expect(command.stdout).toBe(flag.stdout)
    expect(command.stdout).toMatch(/^scansync\/\d+\.\d+\.\d+ /)
  })

  // bin/run.js answers these without loading oclif (start-up): the line must stay oclif's own.
  it('--version, -v and version print oclif\'s userAgent byte for byte, and only when alone', async () => {
    const expected = `${(await Config.load({ root: ROOT })).userAgent}\n`
    const runs = await Promise.all([['--version'], ['-v'], ['version']].map((args) => runCli(args)))
    for (const { code, stdout, stderr } of runs) expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: expected, stderr: '' })
    // Not alone: oclif decides (help for the command, not a version line).
    const help = await runCli(['version', '--help'])
    expect(help.stdout).toContain('USAGE')
  })
})

describe.concurrent('environment errors name the variable', () => {
  it.each([
    [{ SCANSYNC_PARALLELISM: '999' }, /^Error: SCANSYNC_PARALLELISM must be a whole number from 1 to 256 \(got "999"\)/],
    [{ SCANSYNC_MAX_ATTEMPTS: '0' }, /^Error: SCANSYNC_MAX_ATTEMPTS must be a whole number from 1 to 2147483647 \(got "0"\)/],
    [{ SCANSYNC_TIMEOUT_MS: 'soon' }, /^Error: SCANSYNC_TIMEOUT_MS must be a whole number/],
    [{ SCANSYNC_PROGRESS_MS: 'abc' }, /^Error: SCANSYNC_PROGRESS_MS must be a whole number from 1 to 2147483647 \(got "abc"\)/],
  ])('%j', async (env, message) => {
    const em = await emulator()
    const { code, stderr } = await cli(em, exampleConfig(), ['plan', '.'], env)
    expect(code).toBe(1)
    expect(stderr).toMatch(message)
  })

  it('a timeout points at SCANSYNC_TIMEOUT_MS', async () => {
    const em = await emulator({ latencyMs: 400 })
    const { code, stderr } = await cli(em, exampleConfig(), ['plan', '.'], { SCANSYNC_TIMEOUT_MS: '50', SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(code).toBe(1)
    expect(stderr).toMatch(/no complete answer from the service within 50 ms/)
    expect(stderr).toMatch(/^SCANSYNC_TIMEOUT_MS sets the time allowed per attempt/m)
  })

  it('${EMPTY} set to the empty string is "empty", not "not set"', async () => {
    const dir = tempdir({ 'agents.yaml': 'agents:\n  - id: A1\n    name: ${EMPTY}\n' })
    const { code, stderr } = await runCli(['validate', dir], { env: { EMPTY: '' } })
    expect(code).toBe(1)
    expect(stderr).toContain('environment variable EMPTY is empty')
  })
})

describe.concurrent('init', () => {
  it('hints say npx scansync, and no machine-specific schema path is written outside a project holding scansync', async () => {
    const dir = tempdir()
    const { code, stdout } = await runCli(['init', 'config'], { cwd: dir })
    expect(code).toBe(0)
    expect(stdout).toContain('npx scansync validate config')
    expect(stdout).toContain('npx scansync import --kind target,asset,agent --all --out config --force')
    const first = (await import('node:fs')).readFileSync(`${dir}/config/targets.yaml`, 'utf8').split('\n')[0]
    expect(first).not.toMatch(/\$schema=(\/|\.\.\/\.\.)/)
    expect(first).toMatch(/^# Editor schema: /)
  })
})

