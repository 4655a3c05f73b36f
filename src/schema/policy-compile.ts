import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { CompiledPolicyCode } from './policy-compile-worker.js'

/**
 * A rule's schema compiled by Ajv; or Ajv's complaint about it (strict mode: a misspelt keyword);
 * or, when asked to check it against the meta-schema first, what is wrong with it.
 */
export type CompiledSchema = { validate: ValidateFunction } | { error: string } | { schemaErrors: ErrorObject[] }

/** One schema to compile; `checkSchema`: check it against the meta-schema first (when the caller could not). */
export interface SchemaJob {
  schema: object | boolean
  checkSchema?: boolean
}

const require = createRequire(import.meta.url)

/**
 * Compiles policy schemas with Ajv on a worker thread (design.md, "Policies": rules are compiled
 * once by Ajv): the plan is CPU-bound on its main thread, and compiling twenty rules there cost
 * more than checking thousands of resources against them. The worker sends back Ajv's standalone
 * code, which is made into a function here: the same code Ajv's `compile` would have run, with
 * Ajv's small runtime helpers required from this package. Where no worker can run (the sources
 * run by the test runner have no built worker file), the schemas compile here, with the same Ajv.
 */
export class PolicyCompiler {
  private worker?: Worker
  private readonly pending = new Map<number, { job: SchemaJob; settle: (result: CompiledSchema) => void }>()
  private next = 0
  private local?: Promise<(job: SchemaJob) => CompiledSchema>

  constructor(workerUrl = new URL('./policy-compile-worker.js', import.meta.url)) {
    if (!existsSync(fileURLToPath(workerUrl))) return
    // Required, not imported: a configuration without rules never loads worker_threads.
    const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads')
    const worker = new Worker(workerUrl)
    this.worker = worker
    // Idle, it must not keep a run alive.
    worker.unref()
    worker.on('message', ({ id, code, error, schemaErrors }: CompiledPolicyCode) => {
      const job = this.pending.get(id)
      this.pending.delete(id)
      job?.settle(schemaErrors ? { schemaErrors } : error !== undefined ? { error } : { validate: fromStandaloneCode(code!) })
      if (this.pending.size === 0) worker.unref()
    })
    // A worker that cannot start or stops: what it had not answered compiles here instead.
    const fallBack = () => {
      if (this.worker !== worker) return
      this.worker = undefined
      const jobs = [...this.pending.values()]
      this.pending.clear()
      for (const { job, settle } of jobs) void this.compileHere(job).then(settle)
    }
    worker.on('error', fallBack)
    worker.on('exit', fallBack)
  }

  /** Ajv's validator of one schema (already checked against the meta-schema). */
  compile(job: SchemaJob): Promise<CompiledSchema> {
    const worker = this.worker
    if (!worker) return this.compileHere(job)
    const id = this.next++
    const compiled = new Promise<CompiledSchema>((settle) => this.pending.set(id, { job, settle }))
    worker.ref()
    worker.postMessage({ id, ...job })
    return compiled
  }

  /** No more schemas: the worker is let go. */
  close(): void {
    const worker = this.worker
    this.worker = undefined
    void worker?.terminate()
  }

  /** Compiles on this thread, with the same Ajv the worker uses. */
  private async compileHere(job: SchemaJob): Promise<CompiledSchema> {
    this.local ??= import('./policy-ajv.js').then(({ createPolicyAjv, compileSchemaJob }) => {
      const ajv = createPolicyAjv({ formats: true })
      return (job: SchemaJob) => compileSchemaJob(ajv, job)
    })
    return (await this.local)(job)
  }
}

/** Ajv's standalone module text (CommonJS: `module.exports = validate`) as the function it exports. */
function fromStandaloneCode(code: string): ValidateFunction {
  const module = { exports: {} as { default?: ValidateFunction } }
  // Code Ajv wrote from a rule's schema, as `ajv.compile` would have evaluated it itself.
  new Function('require', 'module', 'exports', code)(require, module, module.exports)
  return (module.exports.default ?? module.exports) as ValidateFunction
}
