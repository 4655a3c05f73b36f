#!/usr/bin/env node
// Compiles the schemas scansync validates against at run time into one CommonJS module
// (dist/schema/validators.cjs) with Ajv's standalone code, so no command pays for compiling schemas on start.
import { copyFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import standaloneModule from 'ajv/dist/standalone/index.js'

const standaloneCode = standaloneModule.default ?? standaloneModule
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
// The schemas' formats, a CommonJS file tsc does not copy: Ajv (dist/schema/ajv.js) and the
// compiled validators beside it require it.
copyFileSync(join(root, 'src', 'schema', 'formats.cjs'), join(root, 'dist', 'schema', 'formats.cjs'))
const { createAjv } = await import('../dist/schema/ajv.js')
const { VALIDATOR_SCHEMAS, VALIDATOR_OPTIONS } = await import('../dist/schema/validators.js')
const { appendErrorsInPlace } = await import('../dist/schema/validator-code.js')
const { createPolicyAjv, POLICY_META_SCHEMA } = await import('../dist/schema/policy-ajv.js')
const ajv = createAjv({ ...VALIDATOR_OPTIONS, code: { source: true } })
const code = standaloneCode(ajv, VALIDATOR_SCHEMAS)
const out = join(root, 'dist', 'schema', 'validators.cjs')
mkdirSync(dirname(out), { recursive: true })
// Ajv's standalone code is the code before `code.process`: the same rewrite is applied here.
writeFileSync(out, appendErrorsInPlace(code))

// The policy Ajv's validator of the meta-schema rules are written in (src/schema/policy-meta.ts).
// Written with the Ajv package that writes the standalone code: the one-file copy of Ajv that
// scripts/bundle.js makes for runs (dist/schema/ajv.bundle.cjs) is removed here and made again after.
rmSync(join(root, 'dist', 'schema', 'ajv.bundle.cjs'), { force: true })
const policyAjv = createPolicyAjv({ ajv: { code: { source: true, optimize: false } } })
writeFileSync(join(root, 'dist', 'schema', 'policy-meta.cjs'), standaloneCode(policyAjv, policyAjv.getSchema(POLICY_META_SCHEMA)))
