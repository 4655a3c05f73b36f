/**
 * The worker thread that compiles policy schemas with Ajv (src/schema/policy-compile.ts): each
 * message is one schema; the answer is Ajv's standalone code for it, or Ajv's complaint.
 */
import { parentPort } from 'node:worker_threads'
import { createRequire } from 'node:module'
import type { ErrorObject } from 'ajv'
import { compileSchemaJob, createPolicyAjv } from './policy-ajv.js'

export interface CompiledPolicyCode {
  id: number
  code?: string
  error?: string
  schemaErrors?: ErrorObject[]
}

const require = createRequire(import.meta.url)
const standalone = require('ajv/dist/standalone/index.js') as { default: (ajv: unknown, validate: unknown) => string }
// Formats always: ajv-formats costs nothing on this thread, and a rule naming none compiles the same.
const ajv = createPolicyAjv({ formats: true, ajv: { code: { source: true, optimize: false } } })

parentPort?.on('message', ({ id, schema, checkSchema }: { id: number; schema: object | boolean; checkSchema?: boolean }) => {
  const result = compileSchemaJob(ajv, { schema, checkSchema })
  // Ajv's errors are plain data; its validator is sent as the code it was made from.
  const answer: CompiledPolicyCode = 'validate' in result ? { id, code: standalone.default(ajv, result.validate) } : { id, ...result }
  parentPort!.postMessage(answer)
})
