// bin/run.js starts the list reads of plan, drift and apply before oclif loads, from its own
// reading of the command line (src/cli/run/reads-from-argv.ts); the command claims them when
// oclif parsed the same. The guess must be safe: unsure forms start nothing.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guessReads, readSurely } from '../../src/cli/run/reads-from-argv.js'
import { envFor, ROOT, runCli, tempdir } from '../e2e/helpers.js'
import { EACH_PAGE_ONCE, listReads, onlyDeclaredListReads, readAheadSetup } from '../helpers/read-ahead.js'

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
const guess = (line: string) => guessReads(line.split(' ').filter(Boolean), manifest)

describe('the command line as bin/run.js reads it', () => {
  it.each([
    ['plan', { paths: [] }],
    ['plan config extra.yaml', { paths: ['config', 'extra.yaml'] }],
    ['plan --format json config', { paths: ['config'] }],
    ['plan -f json config -q --detailed-exitcode --out p.json --state s.json', { paths: ['config'] }],
    ['drift config --unmanaged --kind target,agent', { paths: ['config'], kinds: ['target', 'agent'] }],
    ['plan --kind target config --kind=asset', { paths: ['config'], kinds: ['target', 'asset'] }],
    ['apply config --auto-approve --max-changes 5', { paths: ['config'] }],
    ['plan config --api-url http://127.0.0.1:9 --parallelism 16 --insecure-http --debug', { paths: ['config'], apiUrl: 'http://127.0.0.1:9', parallelism: 16, insecureHttp: true, debug: true }],
  ])('%s', (line, expected) => {
    expect(guess(line)).toEqual({ kinds: undefined, apiUrl: undefined, parallelism: undefined, insecureHttp: undefined, debug: undefined, ...expected })
  })

  it.each([
    'validate config',
    'import --kind target --all',
    'plan --help',
    'plan config -h',
    'plan -- config',
    'plan --fromat json',
    'plan -fjson',
    'plan --format',
    'plan --format json --format text',
    'plan --format xml',
    'plan --kind target,agnet',
    'plan --state --debug',
    'plan --quiet --quiet',
    'plan --debug=true',
    'plan --id Tg1 config',
    'apply --plan plan.json',
    'plan --parallelism 0',
    'plan --parallelism many',
    // oclif refuses what is not a whole number of at least 0: no read may go out for it.
    'apply config --max-changes abc',
    'apply config --max-changes 1.5',
    'apply config --max-changes=',
  ])('%s: unsure or no reads, nothing started', (line) => {
    expect(guess(line)).toBeUndefined()
  })

  // validate, audit, import, init and schema read for sure also run on oclif's bundled file, without plugins (bin/run.js).
  it.each([
    ['validate', true],
    ['validate config extra.yaml -q', true],
    ['validate --quiet config', true],
    ['validate --help', false],
    ['validate config --format json', false],
    ['validate -q -q', false],
    ['validate -- config', false],
    ['audit config', true],
    ['audit config policies -f github --parallelism 4', true],
    ['audit --help', false],
    ['audit config --state s.json', false],
    ['import --kind target --all', true],
    ['import --kind target,asset --id a --id b --out config --force', true],
    ['import --kind bogus --all', false],
    ['import --help', false],
    ['init', true],
    ['init config --force -q', true],
    ['init --quiet --quiet', false],
    ['schema', true],
    ['schema --help', false],
    ['emulator', false],
    ['completion', false],
    ['version', false],
  ])('%s: read for sure, %s', (line, sure) => {
    expect(readSurely(line.split(' ').filter(Boolean), manifest) !== undefined).toBe(sure)
  })
})

describe.concurrent('reads started by bin/run.js', () => {
  it('are the ones the plan uses: each page of the declared kinds read once', async () => {
    const { em, dir } = await readAheadSetup()
    const run = await runCli(['plan', dir, '--format', 'json', '--state', join(tempdir(), 'state.json')], { env: envFor(em), spawn: true })
    expect(run.code, run.stderr).toBe(0)
    expect(listReads(em)).toEqual(EACH_PAGE_ONCE)
  })

  it('a command line oclif then refuses: reads only, of the declared kinds, and the run ends', async () => {
    const { em, dir } = await readAheadSetup()
    const run = await runCli(['apply', dir, '--auto-approve', '--max-changes', 'many'], { env: envFor(em), spawn: true })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^Error: .*max-changes/)
    expect(onlyDeclaredListReads(em)).toBe(true)
  })

  it('--help reads nothing', async () => {
    const { em, dir } = await readAheadSetup()
    const run = await runCli(['plan', dir, '--help'], { env: envFor(em), spawn: true })
    expect(run.code).toBe(0)
    expect(em.requests()).toEqual([])
  })
})
