#!/usr/bin/env node
// Writes docs/config-reference.md from schemas/config.schema.json: per kind, every field with its
// type, allowed values, limits, pattern, nullability, default and description, then the
// shorthands. `node scripts/config-reference.js` (npm run docs) writes it; `--check` exits 1
// when the committed copy is stale; `--stdout` prints it instead.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const CONFIG_SCHEMA_PATH = join(root, 'schemas', 'config.schema.json')
export const REFERENCE_PATH = join(root, 'docs', 'config-reference.md')

/** The kinds in output order (schemas/kinds.json); each list's file as `scansync import --out` names it. */
const KINDS = JSON.parse(readFileSync(join(root, 'schemas', 'kinds.json'), 'utf8')).kinds.map(({ kind, list }) => ({ list, def: kind, file: `${list}.yaml` }))

/**
 * A string's limits, without the alternative offered to editors for a value written `${NAME}`
 * (`x-editor-only`, added by scripts/generate.js): the variable's value is held to the limits.
 */
function limited(node) {
  const options = node.anyOf?.filter((option) => option['x-editor-only'] !== true)
  if (!options || options.length !== 1 || options.length === node.anyOf.length) return node
  const { anyOf: _, ...rest } = node
  return { ...rest, ...options[0] }
}

/** Follows `$ref`s to the definition; the outermost description wins. */
function resolve(schema, node) {
  node = limited(node)
  let description = node.description
  let current = node
  const seen = new Set()
  while (typeof current.$ref === 'string') {
    const match = /^#\/definitions\/(.+)$/.exec(current.$ref)
    if (!match || seen.has(match[1])) throw new Error(`unsupported $ref ${current.$ref}`)
    seen.add(match[1])
    const { $ref: _, ...siblings } = current
    current = { ...limited(schema.definitions[match[1]]), ...siblings, ref: match[1] }
    description ??= current.description
  }
  return { ...current, description }
}

const types = (node) => (node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type])
const code = (text) => '`' + String(text).replaceAll('`', "'") + '`'
const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ')
/** `{name: <string>}` in running text as code, so that `<string>` is not taken for HTML. */
const codeMappings = (text) => text.replace(/\{[^}]*\}/g, (mapping) => code(mapping))
const literal = (value) => (value === '' ? '`""`' : value === null ? '`null`' : code(JSON.stringify(value).replace(/^"(.*)"$/, '$1')))

/** The mappings a shorthand stands for ({id}, and {name} where a name may refer instead). */
const longForms = (schema, shorthand) => shorthand.anyOf.map((option) => resolve(schema, option)).filter((option) => types(option).includes('object'))

/** The shorthand definition (anyOf with `x-shorthand-for`) a node is, if any. */
function shorthandOf(schema, node) {
  const resolved = resolve(schema, node)
  return resolved['x-shorthand-for'] ? resolved : undefined
}

function typeWords(schema, node) {
  const shorthand = shorthandOf(schema, node)
  if (shorthand) return `string or mapping ${longForms(schema, shorthand).map((long) => `{${Object.keys(long.properties).join(', ')}}`).join(' or ')}`
  const kinds = types(node).filter((t) => t !== 'null')
  const words = kinds.map((t) => {
    if (t === 'array') return `list of ${itemWords(schema, node.items)}`
    if (t === 'object') return 'mapping'
    if (t === 'string' && node.format === 'uri') return 'string (URI)'
    return t
  })
  return words.join(' or ') || 'any'
}

function itemWords(schema, items) {
  if (!items) return 'anything'
  const resolved = resolve(schema, items)
  if (shorthandOf(schema, items)) return `${typeWords(schema, items).replace('string or mapping', 'strings or mappings')}`
  const kinds = types(resolved).filter((t) => t !== 'null')
  if (kinds.length === 1 && kinds[0] === 'object') return 'mappings'
  if (kinds.length === 1) return `${kinds[0]}s`
  return kinds.join(' or ')
}

function limitWords(node) {
  const out = []
  const enumValues = (node.enum ?? []).filter((value) => value !== null)
  if (enumValues.length > 0) out.push(`one of ${enumValues.map(literal).join(', ')}`)
  if (node.const !== undefined) out.push(`exactly ${literal(node.const)}`)
  const chars = (n) => `${n} ${n === 1 ? 'character' : 'characters'}`
  if (node.minLength !== undefined && node.maxLength !== undefined) out.push(`${node.minLength} to ${chars(node.maxLength)}`)
  else if (node.maxLength !== undefined) out.push(`at most ${chars(node.maxLength)}`)
  else if (node.minLength !== undefined) out.push(node.minLength === 1 ? 'not empty' : `at least ${chars(node.minLength)}`)
  if (node.minimum !== undefined && node.maximum !== undefined) out.push(`${node.minimum} to ${node.maximum}`)
  else if (node.minimum !== undefined) out.push(`at least ${node.minimum}`)
  else if (node.maximum !== undefined) out.push(`at most ${node.maximum}`)
  if (node.minItems !== undefined) out.push(`at least ${node.minItems} items`)
  if (node.maxItems !== undefined) out.push(`at most ${node.maxItems} items`)
  if (node.uniqueItems) out.push('no duplicates')
  if (node.pattern !== undefined) out.push(`pattern ${code(node.pattern)}`)
  return out
}

/** One row per field, depth first, in the schema's order; lists of mappings as `field[].member`. */
function fieldRows(schema, objectNode, prefix, rows, shorthandUses) {
  const object = resolve(schema, objectNode)
  const required = new Set(object.required ?? [])
  for (const [name, raw] of Object.entries(object.properties ?? {})) {
    const node = resolve(schema, raw)
    const path = prefix + name
    const notes = []
    const nullable = types(node).includes('null') || (node.enum ?? []).includes(null) || (node.anyOf ?? []).some((option) => types(resolve(schema, option)).includes('null'))
    if (required.has(name)) notes.push(prefix === '' ? '**Required.**' : '**Required** when the mapping is written.')
    if (node.description) notes.push(node.description.replace(/\.?$/, '.'))
    const direct = shorthandOf(schema, raw)
    const shorthand = direct ?? (node.items ? shorthandOf(schema, node.items) : undefined)
    if (shorthand && !direct) notes.push(`Shorthand: ${codeMappings(shorthand.description.replace(/^[^:]*: /, '').replace(/\.?$/, '.'))}`)
    const flag = `${name}_is_sensitive`
    if (object.properties[flag]) notes.push(`Sensitive when ${code(flag)} is true or when it comes from \`\${…}\`: never printed, compared through the state file when the service hides it.`)
    if (node['x-sensitive']) notes.push('Always sensitive: never printed, compared through the state file when the service hides it.')
    const sensitiveOf = /^(.+)_is_sensitive$/.exec(name)
    if (sensitiveOf && object.properties[sensitiveOf[1]]) notes.push(`Marks ${code(sensitiveOf[1])} as sensitive.`)
    const itemNode = node.items ? resolve(schema, node.items) : undefined
    const itemLimits = itemNode && !shorthand && !types(itemNode).includes('object') ? limitWords(itemNode).map((words) => `each ${words}`) : []
    if (shorthand) shorthandUses.push({ name: shorthand.ref, path })
    rows.push({
      path,
      // A single value's mapping forms get rows of their own (`scanning_agent.id`, `scanning_agent.name`).
      type: (direct ? 'string or mapping' : typeWords(schema, node)) + (nullable ? ', or null' : ''),
      limits: [...limitWords(node), ...itemLimits].join('; '),
      default: node.default === undefined ? '' : literal(node.default),
      notes: notes.join(' '),
    })
    if (types(node).includes('object') && node.properties) fieldRows(schema, node, `${path}.`, rows, shorthandUses)
    else if (shorthand) {
      for (const long of longForms(schema, shorthand)) fieldRows(schema, long, itemNode ? `${path}[].` : `${path}.`, rows, shorthandUses)
    } else if (itemNode && types(itemNode).includes('object') && itemNode.properties) fieldRows(schema, itemNode, `${path}[].`, rows, shorthandUses)
  }
  return rows
}

function table(rows) {
  const lines = ['| Field | Type | Allowed values and limits | Service default | Notes |', '| --- | --- | --- | --- | --- |']
  for (const row of rows) {
    lines.push(`| ${code(row.path)} | ${cell(row.type)} | ${cell(row.limits)} | ${cell(row.default)} | ${cell(row.notes)} |`)
  }
  return lines.join('\n')
}

export function renderConfigReference(schema) {
  const out = []
  out.push(
    '<!-- Generated by scripts/config-reference.js from schemas/config.schema.json; do not edit. Run `npm run docs`. -->',
    '',
    '# Configuration reference',
    '',
    'A configuration is a directory (or a single file): every `*.yaml` / `*.yml` below it is read,',
    'skipping files and folders whose name starts with `.`, and `node_modules`. A file holds any of the top-level',
    `lists ${KINDS.map((k) => code(k.list)).join(', ')} and \`policies\`, and keys starting with \`x-\` (ignored: a home for YAML anchors), and nothing else. Check files with \`scansync validate\`;`,
    'editors complete and check them with the line',
    '`# yaml-language-server: $schema=<path to schemas/config.schema.json>` at the top of a file',
    '(`scansync schema` prints the schema).',
    '',
    'How to read the tables:',
    '',
    '- Every field is optional but those marked **Required.** A target without `id` is identified by',
    '  its `site.url` (and needs `site.name` too, to be created), an agent without `id` by its `name`.',
    '  **Only the fields you write are managed**: a field left out is never sent and never reported as drift.',
    '- `a.b` is the member `b` of the mapping `a`; `a[].b` is the member `b` of each mapping in the list `a`.',
    '- *or null*: `null` may be written (for nullable text, `null` and `""` are the same value).',
    '- *Service default*: what the service uses when nothing was ever set. scansync does not send it',
    '  for you; write the field to manage it.',
    '- `${NAME}` in any string is replaced by the environment variable `NAME`, `${NAME:-fallback}`',
    '  uses `fallback` when it is unset or empty, and `$${` writes a literal `${`. A value that comes',
    '  from a variable is sensitive.',
    '',
    '## Contents',
    '',
    ...KINDS.map((k) => `- [${k.list}](#${k.list}): ${resolve(schema, { $ref: `#/definitions/${k.def}` }).description}`),
    '- [Shorthands](#shorthands)',
    ...(schema.properties.policies ? ['- [policies](#policies): organisation rules (README, "Policies")'] : []),
    '',
  )
  const shorthandUses = []
  for (const kind of KINDS) {
    const definition = resolve(schema, { $ref: `#/definitions/${kind.def}` })
    const uses = []
    out.push(`## ${kind.list}`, '', `${definition.description}`, '')
    out.push('```yaml', `${kind.list}:`, '  - id: <the id the service gave it>', '    # … the fields below', '```', '')
    out.push(table(fieldRows(schema, definition, '', [], uses)), '')
    shorthandUses.push(...uses.map((use) => ({ ...use, path: `${kind.list}: ${use.path}` })))
  }
  out.push('## Shorthands', '', 'Where a field or a list takes these entries, a bare string stands for the mapping:', '')
  for (const [name, definition] of Object.entries(schema.definitions)) {
    const member = definition['x-shorthand-for']
    if (!member) continue
    const used = shorthandUses.filter((use) => use.name === name).map((use) => code(use.path))
    out.push(`- ${codeMappings(definition.description).replace(/\.?$/, '.')} \`- x\` is \`- {${member}: x}\`. Used by ${used.join(', ')}.`)
  }
  out.push(
    '',
    'For example `labels: [production, {name: pci, color: "#d93f0b"}]` and',
    '`teams: [Tm8Kq2Xa9Lp3, {id: Tm1Zz9Yy8Xx7}]`.',
    '',
  )
  const policies = schema.properties.policies
  if (policies) {
    out.push('## policies', '', `${policies.description} Each entry:`, '')
    out.push(table(fieldRows(schema, policies.items, '', [], [])), '')
  }
  return out.join('\n')
}

export const referenceText = () => renderConfigReference(JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')))

function main() {
  const text = referenceText()
  if (process.argv.includes('--stdout')) {
    process.stdout.write(text)
    return 0
  }
  let current = ''
  try {
    current = readFileSync(REFERENCE_PATH, 'utf8')
  } catch {}
  if (process.argv.includes('--check')) {
    if (current === text) return 0
    console.error(`stale: ${REFERENCE_PATH} does not match schemas/config.schema.json (run npm run docs)`)
    return 1
  }
  if (current !== text) {
    mkdirSync(dirname(REFERENCE_PATH), { recursive: true })
    writeFileSync(REFERENCE_PATH, text)
    console.log(`wrote ${REFERENCE_PATH}`)
  }
  return 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main()
