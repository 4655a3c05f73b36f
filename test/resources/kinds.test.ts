// The registry and each kind's module: every path a kind names exists in its request schema, and
// the configuration schema's lists are the registry's kinds.
import { describe, expect, it } from 'vitest'
import { KIND_CHOICES, KIND_NAMES, KIND_ORDER, KINDS, REGISTRY, type ResourceKind } from '../../src/resources/index.js'
import { configLists } from '../../src/schema/config-lists.js'
import { readSchema, type JsonSchema } from '../../src/schema/files.js'
import { requestMembersAt } from '../../src/schema/request-schema.js'

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

describe('yamlPlace', () => {
  it('puts the api_scan_settings a target sends inside site back at the top level', () => {
    expect(KINDS.target.yamlPlace('site.api_scan_settings.api_schema_url')).toBe('api_scan_settings.api_schema_url')
    expect(KINDS.target.yamlPlace('site.api_scan_settings')).toBe('api_scan_settings')
    expect(KINDS.target.yamlPlace('site.api_scan_settings_other')).toBe('site.api_scan_settings_other')
    expect(KINDS.target.yamlPlace('site.name')).toBe('site.name')
    expect(KINDS.asset.yamlPlace('labels.1.name')).toBe('labels.1.name')
  })
})
