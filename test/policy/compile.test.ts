// Policy schemas compiled by Ajv on a worker thread (src/schema/policy-compile.ts, from the built
// dist/, where the worker file exists) judge exactly as the same Ajv compiling on this thread
// (the sources, where there is no built worker); a worker that is missing or dies mid-way leaves
// its schemas to be compiled here.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { PolicyCompiler as LocalCompiler, type CompiledSchema } from '../../src/schema/policy-compile.js'

// The built module (`npm run build`), where the worker file exists next to it.
const built = (await import(new URL('../../dist/schema/policy-compile.js', import.meta.url).href)) as { PolicyCompiler: typeof LocalCompiler }

const SCHEMAS: Array<{ name: string; schema: object | boolean; checkSchema?: boolean }> = [
  { name: 'required and properties', schema: { required: ['labels'], properties: { labels: { type: 'array', minItems: 1 } } } },
  { name: 'if/then with const and enum', schema: { if: { properties: { type: { const: 'api' } } }, then: { properties: { report_type: { enum: ['pci_v4_0_1'] } } } } },
  { name: 'a format (ajv-formats in the standalone code)', schema: { properties: { changed: { type: 'string', format: 'date-time' } } } },
  { name: 'pattern, uniqueItems, string lengths', schema: { properties: { name: { type: 'string', pattern: '^a', maxLength: 3 }, tags: { uniqueItems: true } } } },
  { name: 'a boolean schema', schema: false },
  { name: 'a misspelt keyword', schema: { requried: ['labels'] } },
  { name: 'an unknown format', schema: { properties: { x: { format: 'no-such-format' } } } },
  { name: 'not a schema, checked first', schema: { type: 'no-such-type' }, checkSchema: true },
]
const INSTANCES: unknown[] = [
  {},
  { labels: [] },
  { labels: [{ name: 'a' }], type: 'api', report_type: 'default' },
  { type: 'api', report_type: 'pci_v4_0_1', changed: '2026-01-01T00:00:00Z' },
  { changed: 'yesterday', name: 'abcd', tags: [1, 1] },
  { name: 'ab', tags: [1, 2] },
]

/** What a compiled schema says about each instance (valid, and Ajv's first error), or its complaint. */
function judge(result: CompiledSchema) {
  if ('error' in result) return { error: result.error }
  if ('schemaErrors' in result) return { schemaErrors: result.schemaErrors.map(({ instancePath, message }) => ({ instancePath, message })) }
  return INSTANCES.map((instance) => {
    const valid = result.validate(instance)
    const first = result.validate.errors?.[0]
    return { valid, error: valid ? undefined : `${first?.instancePath} ${first?.message}` }
  })
}

const compilers: LocalCompiler[] = []
const make = (Compiler: typeof LocalCompiler, url?: URL) => {
  const compiler = url ? new Compiler(url) : new Compiler()
  compilers.push(compiler)
  return compiler
}
afterAll(() => compilers.forEach((compiler) => compiler.close()))

describe('policy schemas compiled on a worker thread', () => {
  it.each(SCHEMAS)('$name: the worker’s code judges as Ajv compiling here', async ({ schema, checkSchema }) => {
    const [onWorker, here] = await Promise.all([make(built.PolicyCompiler).compile({ schema, checkSchema }), make(LocalCompiler).compile({ schema, checkSchema })])
    expect(judge(onWorker)).toEqual(judge(here))
  })

  it('a misspelt keyword is Ajv’s strict-mode complaint, from the worker too', async () => {
    const result = await make(built.PolicyCompiler).compile({ schema: { requried: ['x'] } })
    expect(result).toEqual({ error: expect.stringContaining('unknown keyword: "requried"') })
  })

  it('many schemas at once are answered each to its own request', async () => {
    const compiler = make(built.PolicyCompiler)
    const results = await Promise.all(Array.from({ length: 30 }, (_, n) => compiler.compile({ schema: { properties: { n: { const: n } } } })))
    results.forEach((result, n) => {
      if (!('validate' in result)) throw new Error(`schema ${n} did not compile`)
      expect([result.validate({ n }), result.validate({ n: n + 1 })]).toEqual([true, false])
    })
  })

  it('without a worker file, the schemas compile on this thread', async () => {
    const result = await make(built.PolicyCompiler, pathToFileURL(join(tmpdir(), 'no-such-policy-worker.js'))).compile({ schema: { required: ['a'] } })
    expect('validate' in result && [result.validate({ a: 1 }), result.validate({})]).toEqual([true, false])
  })

  it('a worker that stops before answering leaves its schemas to this thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scansync-policy-worker-'))
    const dying = join(dir, 'dying-worker.mjs')
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads'\nparentPort.on('message', () => process.exit(1))\n")
    const compiler = make(built.PolicyCompiler, pathToFileURL(dying))
    const results = await Promise.all([compiler.compile({ schema: { required: ['a'] } }), compiler.compile({ schema: { requried: ['a'] } })])
    expect('validate' in results[0]! && results[0].validate({})).toBe(false)
    expect(results[1]).toEqual({ error: expect.stringContaining('unknown keyword: "requried"') })
  })
})
