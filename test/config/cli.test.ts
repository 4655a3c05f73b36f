// `scansync validate` and `scansync schema` through the CLI: oclif and the built dist/, in-process
// where a child proves nothing more (test/helpers/cli.ts), in a child (node bin/run.js) where marked.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Ajv, type Options } from 'ajv'
import * as ajvFormats from 'ajv-formats'
import { SCHEMA_ANNOTATIONS } from '../../src/schema/files.js'
import { BAD_INPUTS, expectValidateRefuses, FAMILIES } from './bad-inputs.js'
import { ensureBuilt, removeTestdirs, ROOT, runCli, testdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)
afterAll(removeTestdirs)

const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv
const freshAjv = (options: Options) => addFormats(new Ajv({ allErrors: true, allowUnionTypes: true, ...options }))

describe.concurrent('scansync validate: bad input exits 1 with FILE:LINE:COLUMN: message on stderr', () => {
  // One case of each family through the real executable; every case runs in-process in load-errors.test.ts.
  it.each(FAMILIES.map((name) => [name, BAD_INPUTS.find((c) => c.name === name)!] as const))('%s', async (_, input) => {
    const cwd = testdir(input.files)
    expectValidateRefuses(input, await runCli(['validate', ...(input.paths ?? ['.'])], { cwd, env: input.env, spawn: true }))
  })

  it('files are named by their path from the working directory', async () => {
    const dir = testdir({ 'cfg/a.yaml': 'agents:\n  - id: G1\n    nme: x\n' })
    const { code, stderr } = await runCli(['validate', 'cfg'], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr.split('\n')[0]).toBe('cfg/a.yaml:3:5: agent G1: nme: unknown field; did you mean "name"?')
  })

  it('an unset variable is named on stderr; a set one makes the file valid', async () => {
    const cwd = testdir({ 'a.yaml': 'agents:\n  - id: G1\n    name: ${AGENT_NAME}\n' })
    const unset = await runCli(['validate'], { cwd })
    expect(unset.code).toBe(1)
    expect(unset.stderr).toContain('a.yaml:3:11: agent G1: name: environment variable AGENT_NAME is not set')
    const set = await runCli(['validate'], { cwd, env: { AGENT_NAME: 'dc-1' } })
    expect(set).toMatchObject({ code: 0, stderr: '' })
  })
})

describe.concurrent('scansync validate: good input', () => {
  it('examples/config is valid with no environment variables set (exit 0)', async () => {
    const { code, stdout, stderr } = await runCli(['validate', 'examples/config'], { cwd: ROOT })
    expect(stderr).toBe('')
    expect(stdout).toBe('Valid: 4 files, 3 targets, 3 assets, 2 agents.\n')
    expect(code).toBe(0)
  })

  it('PATH defaults to the current directory; --quiet prints nothing', async () => {
    const cwd = testdir({ 'a.yaml': 'agents:\n  - id: G1\n', 'sub/b.yml': 'targets:\n  - id: T1\n' })
    expect(await runCli(['validate'], { cwd })).toEqual({ code: 0, stdout: 'Valid: 2 files, 1 target, 0 assets, 1 agent.\n', stderr: '' })
    expect(await runCli(['validate', '--quiet'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' })
  })
})

describe('scansync schema', () => {
  let printed: unknown

  beforeAll(async () => {
    const { code, stdout, stderr } = await runCli(['schema'], { cwd: ROOT, spawn: true })
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    printed = JSON.parse(stdout)
  })

  it('prints the configuration schema, the file in schemas/', () => {
    expect(printed).toEqual(JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8')))
  })

  it('compiles with a fresh Ajv, as an editor would, and in strict mode knowing only our x- annotations', () => {
    expect(freshAjv({ strict: false }).compile(printed as object)).toBeTypeOf('function')
    const strict = freshAjv({ strict: true })
    for (const keyword of SCHEMA_ANNOTATIONS) strict.addKeyword({ keyword, schemaType: ['string', 'boolean'] })
    expect(strict.compile(printed as object)).toBeTypeOf('function')
  })

  it('accepts every file of examples/config as parsed by yaml (a raw file, before ${…} is resolved)', () => {
    const validate = freshAjv({ strict: false }).compile(printed as object)
    const dir = join(ROOT, 'examples', 'config')
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f))
    expect(files.length).toBeGreaterThanOrEqual(4)
    for (const file of files) {
      const data = parse(readFileSync(join(dir, file), 'utf8'))
      expect(validate(data) ? [] : validate.errors, relative(ROOT, join(dir, file))).toEqual([])
    }
  })

  it('rejects what validate rejects: an unknown key, a too-long name, a missing id', () => {
    const validate = freshAjv({ strict: false }).compile(printed as object)
    expect(validate({ targets: [{ id: 'T1', sitee: {} }] })).toBe(false)
    expect(validate({ agents: [{ id: 'G1', name: 'x'.repeat(256) }] })).toBe(false)
    expect(validate({ assets: [{ state: 'NEW' }] })).toBe(false)
    expect(validate({ agents: [{ id: 'G1', name: 'x'.repeat(255), teams: ['Tm1', { id: 'Tm2' }] }] })).toBe(true)
  })
})
