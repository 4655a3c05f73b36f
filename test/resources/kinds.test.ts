// The registry and each kind's module: every path a kind names exists in its request schema, the
// configuration schema's lists are the registry's kinds, schemas/kinds.json and the registry agree,
// and a kind added as data (its schemas and kinds.json) and one registry entry is all it takes.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript build script
import { buildConfigSchema, buildTypes, configSchemaText, KIND_NAME_PATH, kindNameText, readKinds } from '../../scripts/generate.js'
import type { KindName } from '../../src/core/types.js'
import { KIND_CHOICES, KIND_NAMES, KIND_ORDER, KINDS, REGISTRY, registryOf, type ResourceKind } from '../../src/resources/index.js'
import { configLists } from '../../src/schema/config-lists.js'
import { readSchema, RESPONSE_SCHEMA_FILES, SCHEMA_FILES, SCHEMAS_DIR, type JsonSchema } from '../../src/schema/files.js'
import { kindEntries } from '../../src/schema/kinds.js'
import { requestMembersAt } from '../../src/schema/request-schema.js'
import { validator, VALIDATOR_SCHEMAS } from '../../src/schema/validators.js'

/** Whether a dotted path (list items entered where the schema has a list) is a field of the kind's request. */
const inRequest = (kind: ResourceKind, path: string) => {
  const segments = path.split('.')
  return requestMembersAt(kind.requestSchema, segments.slice(0, -1))?.includes(segments[segments.length - 1]) ?? false
}

describe.each(REGISTRY.map((kind) => [kind.name, kind] as const))('the %s kind', (_, kind) => {
  it('names only fields of its request schema', () => {
    const named = [...Object.keys(kind.rules), ...kind.filledByScans, ...Object.keys(kind.onlyWhile), ...kind.sensitiveFields]
    expect(named.length).toBeGreaterThan(0)
    expect(named.filter((path) => !inRequest(kind, path))).toEqual([])
  })

  it('is a list of the configuration schema, made of its request fields', () => {
    const config = readSchema('config.schema.json')
    expect((config.properties as Record<string, JsonSchema>)[kind.list]).toBeDefined()
    const definition = (config.definitions as Record<string, JsonSchema>)[kind.name]
    const request = readSchema(kind.requestSchema)
    expect(Object.keys(definition.properties as object).filter((key) => key !== 'id')).toEqual(Object.keys(request.properties as object))
  })
})

describe('the registry', () => {
  it('gives the kinds, their order and the --kind choices', () => {
    expect(KIND_NAMES).toEqual(['target', 'asset', 'agent'])
    expect(KIND_ORDER).toEqual({ target: 0, asset: 1, agent: 2 })
    expect(KIND_CHOICES).toBe('target, asset or agent')
    for (const name of KIND_NAMES) expect(KINDS[name].name).toBe(name)
  })

  it('is what the configuration loader reads from config.schema.json', () => {
    expect(configLists()).toEqual(REGISTRY.map((kind) => ({ list: kind.list, kind: kind.name })))
  })
})

describe('schemas/kinds.json', () => {
  it('lists the registry\'s kinds in its order, each with the list and schema files its module names', () => {
    expect(kindEntries().map((entry) => entry.kind)).toEqual(KIND_NAMES)
    expect(readKinds()).toEqual(kindEntries())
    for (const entry of kindEntries()) {
      const kind = KINDS[entry.kind]
      expect({ list: kind.list, request: kind.requestSchema, response: kind.responseValidator }).toEqual({ list: entry.list, request: entry.request, response: entry.response })
      expect(SCHEMA_FILES).toContain(entry.request)
      expect(RESPONSE_SCHEMA_FILES).toContain(entry.response)
      expect(entry.description).not.toBe('')
    }
  })

  it('gives natural keys that are fields of the request', () => {
    const keyed = kindEntries().filter((entry) => entry.naturalKey !== undefined)
    expect(keyed.map((entry) => [entry.kind, entry.naturalKey])).toEqual([['target', 'site.url'], ['agent', 'name']])
    for (const entry of keyed) expect(inRequest(KINDS[entry.kind], entry.naturalKey!)).toBe(true)
  })

  it('is where KindName comes from (npm run gen)', () => {
    expect(readFileSync(KIND_NAME_PATH, 'utf8')).toBe(kindNameText())
  })

  it('every response schema has a validator, and every kind\'s answers are checked by one', () => {
    for (const file of RESPONSE_SCHEMA_FILES) expect(VALIDATOR_SCHEMAS[file]).toBe(file)
    for (const kind of REGISTRY) expect(validator(kind.responseValidator)).toBeTypeOf('function')
    expect(validator(KINDS.agent.responseValidator)({ id: 'a1', name: 'Agent' })).toBe(true)
  })
})

describe('a kind added as data and one registry entry', () => {
  const widget = { ...KINDS.agent, name: 'widget' as KindName, list: 'widgets', requestSchema: 'widget-patch.request.schema.json' } as unknown as ResourceKind

  it('is a --kind choice, in output order', () => {
    const registry = registryOf([...REGISTRY, widget])
    expect(registry.names).toEqual(['target', 'asset', 'agent', 'widget'])
    expect(registry.order).toMatchObject({ target: 0, widget: 3 })
    expect(registry.choices).toBe('target, asset, agent or widget')
    expect(registry.kinds['widget' as KindName]).toBe(widget)
  })

  // schemas/ copied with a widget's two schemas and its kinds.json entry: everything derived follows.
  const dir = mkdtempSync(join(tmpdir(), 'scansync-kinds-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(SCHEMAS_DIR, dir, { recursive: true })
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value))
  write('widget-patch.request.schema.json', {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'widget-patch.request.schema.json',
    title: 'WidgetPatchRequest',
    type: 'object',
    additionalProperties: false,
    properties: { name: { type: 'string', minLength: 1 }, labels: { $ref: 'common.schema.json#/definitions/labelList' } },
  })
  write('widget.response.schema.json', {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'widget.response.schema.json',
    title: 'WidgetResponse',
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string' }, name: { type: 'string' } },
  })
  const kinds = JSON.parse(readFileSync(join(dir, 'kinds.json'), 'utf8'))
  kinds.kinds.push({ kind: 'widget', list: 'widgets', request: 'widget-patch.request.schema.json', response: 'widget.response.schema.json', description: 'A widget.' })
  write('kinds.json', kinds)

  it('is a list of the configuration schema and a value of its kind, which plans and policies use', () => {
    const config = buildConfigSchema(dir)
    expect(Object.keys(config.properties)).toEqual(['targets', 'assets', 'agents', 'widgets', 'policies'])
    expect(config.definitions.kind.enum).toEqual(['target', 'asset', 'agent', 'widget'])
    expect(config.definitions.widget).toMatchObject({ description: 'A widget.', required: ['id'] })
    expect(Object.keys(config.definitions.widget.properties)).toEqual(['id', 'name', 'labels'])

    writeFileSync(join(dir, 'config.schema.json'), configSchemaText(dir))
    const ajv = new Ajv({ strict: false, allowUnionTypes: true, validateFormats: false })
    for (const file of [...SCHEMA_FILES, 'widget-patch.request.schema.json', 'widget.response.schema.json']) ajv.addSchema(JSON.parse(readFileSync(join(dir, file), 'utf8')), file)
    const configValid = ajv.getSchema('config.schema.json')!
    expect(configValid({ widgets: [{ id: 'w1', name: 'Widget', labels: ['blue'] }], policies: [{ name: 'named', kind: 'widget', require: true }] })).toBe(true)
    expect(configValid({ widgets: [{ name: 'Widget' }] })).toBe(false)
    for (const document of ['plan.schema.json', 'config.schema.json']) {
      const kind = ajv.getSchema(`${document}#/definitions/kind`)!
      expect([kind('widget'), kind('agent'), kind('gadget')]).toEqual([true, true, false])
    }
  })

  it('is refused by npm run gen, plainly, when its kinds.json entry names a schema file that is not there', () => {
    const broken = mkdtempSync(join(tmpdir(), 'scansync-kinds-'))
    try {
      cpSync(dir, broken, { recursive: true })
      rmSync(join(broken, 'widget.response.schema.json'))
      expect(() => readKinds(broken)).toThrow('schemas/kinds.json: "widget" needs response: a *.response.schema.json file of schemas/')
    } finally {
      rmSync(broken, { recursive: true, force: true })
    }
  })

  it('is a KindName, and its schemas give types and schema file names', async () => {
    expect(kindNameText(dir)).toContain("export type KindName = 'target' | 'asset' | 'agent' | 'widget'")
    writeFileSync(join(dir, 'config.schema.json'), configSchemaText(dir))
    const types = await buildTypes(dir)
    expect(types).toContain('export interface WidgetPatchRequest {')
    expect(types).toContain('export interface WidgetResponse {')
    expect(types).toContain("'widget-patch.request.schema.json',")
    expect(types).toContain("'widget.response.schema.json'")
    expect(types).toMatch(/kind: 'target' \| 'asset' \| 'agent' \| 'widget'/)
  })
})

describe('the list of kinds', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
  const files = (directory: string): string[] =>
    readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(directory, entry.name)) : /\.(ts|js)$/.test(entry.name) ? [join(directory, entry.name)] : [],
    )
  // The embedded service emulates the service's endpoints, not scansync's kinds; the generated files are data.
  const exempt = new Set(['src/schema/generated.ts', 'src/core/kind-name.ts'])

  it('is written only in schemas/kinds.json and the registry (code elsewhere derives it)', () => {
    const quoted = (names: readonly string[]) => names.map((name) => `['"]${name}['"]`).join('\\W+')
    const written = new RegExp([quoted(KIND_NAMES), quoted(REGISTRY.map((kind) => kind.list)), KIND_NAMES.map((name, i) => `\\b${name}: ?${i}`).join(',\\s*')].join('|'))
    const found = [...files(join(root, 'src')), ...files(join(root, 'scripts'))]
      .map((path) => relative(root, path).split('\\').join('/'))
      .filter((path) => !path.startsWith('src/emulator/') && !exempt.has(path) && written.test(readFileSync(join(root, path), 'utf8')))
    expect(found).toEqual([])
  })
})

describe('yamlPlace', () => {
  it('puts the api_scan_settings a target sends inside site back at the top level', () => {
    expect(KINDS.target.yamlPlace('site.api_scan_settings.api_schema_url')).toBe('api_scan_settings.api_schema_url')
    expect(KINDS.target.yamlPlace('site.api_scan_settings')).toBe('api_scan_settings')
    expect(KINDS.target.yamlPlace('site.api_scan_settings_other')).toBe('site.api_scan_settings_other')
    expect(KINDS.target.yamlPlace('site.name')).toBe('site.name')
    expect(KINDS.asset.yamlPlace('labels.1.name')).toBe('labels.1.name')
  })
})
