// docs/config-reference.md is generated from schemas/config.schema.json (npm run docs): it must
// be up to date and name every field the schema allows.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JavaScript script, run without a build
import * as reference from '../../scripts/config-reference.js'

const { CONFIG_SCHEMA_PATH, REFERENCE_PATH, referenceText, renderConfigReference } = reference as {
  CONFIG_SCHEMA_PATH: string
  REFERENCE_PATH: string
  referenceText(): string
  renderConfigReference(schema: unknown): string
}

type Node = { $ref?: string; properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; type?: string | string[]; enum?: unknown[] }
const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')) as { definitions: Record<string, Node>; properties: Record<string, Node> }

const deref = (node: Node): Node => (node.$ref ? deref(schema.definitions[node.$ref.replace('#/definitions/', '')]) : node)

/** Every field path the schema allows below a kind, as the reference writes them (`a.b`, `a[].b`). */
function fieldPaths(node: Node, prefix = ''): string[] {
  const object = deref(node)
  const paths: string[] = []
  for (const [name, raw] of Object.entries(object.properties ?? {})) {
    const child = deref(raw)
    paths.push(prefix + name)
    if (child.properties) paths.push(...fieldPaths(child, `${prefix}${name}.`))
    if (child.items) {
      const item = deref(child.items)
      const long = item.anyOf ? item.anyOf.map(deref).find((option) => option.properties) : item
      if (long?.properties) paths.push(...fieldPaths(long, `${prefix}${name}[].`))
    }
  }
  return paths
}

const committed = readFileSync(REFERENCE_PATH, 'utf8')

describe('docs/config-reference.md', () => {
  it('is up to date with schemas/config.schema.json (run `npm run docs` when this fails)', () => {
    expect(committed === referenceText(), 'docs/config-reference.md is stale: run npm run docs').toBe(true)
  })

  it.each(['target', 'asset', 'agent'])('has a row for every field of a %s', (kind) => {
    const list = `${kind}s`
    const section = committed.split(`\n## ${list}\n`)[1].split('\n## ')[0]
    const paths = fieldPaths(schema.definitions[kind])
    expect(paths.length).toBeGreaterThan(2)
    for (const path of paths) expect(section, path).toContain(`| \`${path}\` |`)
  })

  it('lists allowed values, limits, patterns, nullability, defaults and shorthands', () => {
    const row = (path: string) => committed.split('\n').find((line) => line.startsWith(`| \`${path}\` |`)) ?? ''
    expect(row('report_type')).toContain('`owasp_web_2025`')
    expect(row('report_type')).toContain('| `default` |')
    expect(row('site.name')).toContain('at most 255 characters')
    expect(row('labels[].color')).toContain('pattern `^[a-zA-Z0-9#_-]*$`')
    expect(row('blackout_period.weekdays')).toContain('each 0 to 7')
    expect(row('scanning_agent')).toMatch(/mapping( \{id\})?, or null/)
    expect(row('site.basic_auth.password')).toContain('Sensitive when `password_is_sensitive` is true')
    expect(row('site.otp_secret')).toContain('Always sensitive')
    // Targets and agents may leave out the id (their natural key identifies them); assets may not.
    expect(committed).toContain('| `id` | string | not empty |  | **Required.** Identifier of the resource')
    expect(row('id')).toContain('Without it, site.url identifies the target.')
    expect(committed).toContain('Used by `agents: teams`')
    expect(committed).toContain('Used by `targets: labels`, `assets: owners`, `assets: labels`')
  })

  it('changes when the schema changes', () => {
    const changed = structuredClone(schema) as unknown as { definitions: { agent: { properties: Record<string, unknown> } } }
    changed.definitions.agent.properties.note = { type: 'string', maxLength: 9, description: 'A new field.' }
    const text = renderConfigReference(changed)
    expect(text).not.toBe(committed)
    expect(text).toContain('| `note` | string | at most 9 characters |  | A new field. |')
  })
})
