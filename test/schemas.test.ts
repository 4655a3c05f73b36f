import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script
import { buildTypes, configSchemaText, CONFIG_SCHEMA_PATH, TYPES_PATH } from '../scripts/generate.js'
import { createAjv } from '../src/schema/ajv.js'
import { SCHEMA_FILES } from '../src/schema/files.js'

describe('schemas/', () => {
  it('every schema compiles with Ajv', () => {
    const ajv = createAjv()
    for (const name of SCHEMA_FILES) expect(ajv.getSchema(name), name).toBeTypeOf('function')
  })

  it('config.schema.json is up to date with the request schemas (npm run gen)', () => {
    expect(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')).toBe(configSchemaText())
  })

  it('the generated TypeScript types are up to date (npm run gen)', async () => {
    expect(readFileSync(TYPES_PATH, 'utf8')).toBe(await buildTypes())
  })
})
