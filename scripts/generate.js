#!/usr/bin/env node
// Derives what must never be written twice from the hand-written files in schemas/ (the schemas and
// kinds.json, the kinds in output order):
//   schemas/config.schema.json  the YAML files' schema: each kind's request schema, bundled into one
//                               self-contained document (editors and `scansync schema` need one file),
//                               with `id` added, every other field optional, and the shorthands
//                               (`x-config-shorthand`) allowed where the requests take labels or teams;
//                               its `kind` definition is the kind names (plans and policies refer to it);
//   src/schema/generated.ts     TypeScript types of every schema (a declared resource is its request type
//                               plus `id`), and SCHEMA_FILES, the names of the schemas in schemas/;
//   src/core/kind-name.ts       the KindName type (core imports nothing, so it gets a file of its own).
// `node scripts/generate.js` writes them; `--check` exits 1 when a committed copy is stale.
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const SCHEMAS_DIR = join(root, 'schemas')
const readJson = (dir, name) => JSON.parse(readFileSync(join(dir, name), 'utf8'))

/**
 * The $ref walker of src/schema/refs.ts (the one the code uses), compiled here on its own:
 * `npm run gen` must work before anything is built (it writes a file the build compiles).
 */
async function loadRefWalker() {
  const { default: ts } = await import('typescript')
  const source = readFileSync(join(root, 'src', 'schema', 'refs.ts'), 'utf8')
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } })
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`)
}
const { atPointer, parseRef } = await loadRefWalker()

export const CONFIG_SCHEMA_PATH = join(SCHEMAS_DIR, 'config.schema.json')
export const TYPES_PATH = join(root, 'src', 'schema', 'generated.ts')
export const KIND_NAME_PATH = join(root, 'src', 'core', 'kind-name.ts')

/** The kinds in output order (schemas/kinds.json): kind, list, request, response, naturalKey?, description. */
export function readKinds(dir = SCHEMAS_DIR) {
  const { kinds } = readJson(dir, 'kinds.json')
  const files = new Set(schemaFiles(dir))
  for (const entry of kinds) {
    // A mistake here would be generated into the config schema and the types: say it plainly.
    const problem =
      !/^[a-z][a-z0-9_]*$/.test(entry.kind ?? '') ? 'kind: a lower-case name' :
      !/^[a-z][a-z0-9_]*$/.test(entry.list ?? '') ? 'list: a lower-case name' :
      !files.has(entry.request) || !entry.request.endsWith('.request.schema.json') ? 'request: a *.request.schema.json file of schemas/' :
      !files.has(entry.response) || !entry.response.endsWith('.response.schema.json') ? 'response: a *.response.schema.json file of schemas/' :
      typeof entry.description !== 'string' || entry.description === '' ? 'description: text' :
      entry.naturalKey !== undefined && typeof entry.naturalKey !== 'string' ? 'naturalKey: a dotted field of the request' : undefined
    if (problem) throw new Error(`schemas/kinds.json: ${JSON.stringify(entry.kind)} needs ${problem}`)
  }
  return kinds
}

/** The schema files in schemas/, sorted (kinds.json is not a schema). */
export const schemaFiles = (dir = SCHEMAS_DIR) => readdirSync(dir).filter((name) => name.endsWith('.schema.json')).sort()

/** camelCase of a schema file's name, a member of the types' root: `target-patch.request.schema.json` → targetPatch. */
const memberName = (file) => file.replace(/(\.request|\.response)?\.schema\.json$/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase())

/** A policy rule (contract, "Policies"); `when` and `require` are JSON Schemas, checked when the rules are compiled. */
const POLICIES = {
  type: ['array', 'null'],
  description: 'Organisation rules every resource of a kind must follow, checked by plan, apply, drift and audit.',
  items: {
    type: 'object',
    required: ['name', 'kind', 'require'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, description: 'Unique name of the rule (across all files).' },
      description: { type: 'string', description: 'What the rule wants, in words a reviewer understands: the first words of each violation.' },
      kind: { $ref: '#/definitions/kind', description: 'The kind of resource the rule checks.' },
      when: { type: ['object', 'boolean'], description: 'JSON Schema: the rule applies only to resources matching it.' },
      require: { type: ['object', 'boolean'], description: 'JSON Schema every resource the rule applies to must satisfy.' },
      level: { type: 'string', enum: ['error', 'warning'], default: 'error', description: 'error (plan exits 1, apply refuses) or warning (reported only).' },
    },
  },
}

/**
 * A string written `${NAME}` (or with one inside) is checked by scansync once the variable is
 * replaced, but an editor checks it as written: each string the schema limits (format, pattern,
 * enum, maxLength) also takes, as an alternative marked `x-editor-only`, a string holding a variable.
 * scansync reads the schema without these alternatives (src/schema/files.ts), so that the value a
 * variable gives is held to the limits. The id is not offered one: it cannot come from a variable.
 */
export const VARIABLE_PATTERN = '(^|[^$])\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}'
const LIMITS = ['format', 'pattern', 'enum', 'maxLength']
const ANNOTATIONS = ['description', 'default']
function withVariableAlternative(node) {
  if (Array.isArray(node)) return node.map(withVariableAlternative)
  if (node === null || typeof node !== 'object') return node
  const out = {}
  for (const [key, value] of Object.entries(node)) out[key] = key === 'enum' || key === 'default' ? value : withVariableAlternative(value)
  const types = out.type === undefined ? [] : [out.type].flat()
  if (!types.includes('string') || out.$ref !== undefined || !LIMITS.some((limit) => limit in out)) return out
  const annotations = Object.fromEntries(ANNOTATIONS.filter((key) => key in out).map((key) => [key, out[key]]))
  const limited = Object.fromEntries(Object.entries(out).filter(([key]) => !ANNOTATIONS.includes(key)))
  return { ...annotations, anyOf: [limited, { type: 'string', pattern: VARIABLE_PATTERN, 'x-editor-only': true }] }
}

/**
 * A schema requiring the dotted field (`site.url`: a `site` mapping with a `url`). Each required
 * field is also named under `properties` (as `true` where nothing more is asked), in a mapping: Ajv's strict mode
 * wants a required field defined beside it, and the type it applies to.
 */
const requiredAt = ([field, ...rest]) => ({ type: 'object', required: [field], properties: { [field]: rest.length > 0 ? requiredAt(rest) : true } })

export function buildConfigSchema(dir = SCHEMAS_DIR) {
  const kinds = readKinds(dir)
  const commonDocument = readJson(dir, 'common.schema.json')
  const common = commonDocument.definitions
  const definitions = {}

  // Copies a schema fragment, pulling every common definition it reaches into `definitions`.
  // Inside a shorthand's own definition, a ref to the long form stays a ref to the long form.
  const localize = (node, within) => {
    if (Array.isArray(node)) return node.map((item) => localize(item, within))
    if (node === null || typeof node !== 'object') return node
    const out = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        // The request schemas refer only to common definitions (a ref without a file is in common itself).
        const { file, pointer } = parseRef(value)
        const definition = /^\/definitions\/([^/]+)$/.exec(pointer)?.[1]
        if ((file !== '' && file !== 'common.schema.json') || !definition || !atPointer(commonDocument, pointer)) throw new Error(`unsupported $ref ${value}`)
        const shorthand = common[definition]['x-config-shorthand']
        const name = shorthand && shorthand !== within ? shorthand : definition
        if (!(name in definitions)) {
          definitions[name] = null // reserve before recursing: definitions may refer to each other
          definitions[name] = localize(common[name], name)
        }
        out.$ref = `#/definitions/${name}`
      } else if (key !== 'x-config-shorthand') {
        out[key] = localize(value, within)
      }
    }
    return out
  }

  const properties = {}
  for (const kind of kinds) {
    // A kind's definition sits beside the common ones and the kind names.
    if (kind.kind in common || kind.kind === 'kind') throw new Error(`schemas/kinds.json: the kind name ${kind.kind} is taken by a definition of common.schema.json or the kind names`)
    const request = readJson(dir, kind.request)
    definitions[kind.kind] = {
      description: kind.description,
      type: 'object',
      // A kind with a natural key may leave out the id, not both (src/config/identity-checks.ts checks
      // the key, in its own words: the rule is for editors only, `x-editor-only`).
      ...(kind.naturalKey ? { allOf: [{ 'x-editor-only': true, anyOf: [requiredAt(['id']), requiredAt(kind.naturalKey.split('.'))] }] } : { required: ['id'] }),
      additionalProperties: false,
      properties: {
        id: kind.naturalKey
          ? { $ref: '#/definitions/id', description: `Identifier of the ${kind.kind}. Without it, ${kind.naturalKey} identifies the ${kind.kind}.` }
          : { $ref: '#/definitions/id' },
        ...localize(request.properties),
      },
    }
    properties[kind.list] = {
      type: ['array', 'null'],
      items: { $ref: `#/definitions/${kind.kind}` },
    }
  }
  localize({ $ref: '#/definitions/id' })
  for (const [name, definition] of Object.entries(definitions)) if (name !== 'id') definitions[name] = withVariableAlternative(definition)
  definitions.kind = { type: 'string', enum: kinds.map((kind) => kind.kind), description: 'A kind of resource.' }

  const sortedDefinitions = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)))
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'config.schema.json',
    title: 'scansync configuration file',
    description:
      'Generated by scripts/generate.js from the request schemas in schemas/; do not edit. A file holds any of the lists targets, assets, agents and policies, and keys starting with x- (ignored: a home for YAML anchors). ${NAME} in a string is replaced by the environment variable NAME.',
    type: 'object',
    additionalProperties: false,
    properties: { ...properties, policies: POLICIES },
    // Top-level keys starting with x- are ignored: a home for anchors (`x-office-hours: &office-hours {…}`).
    patternProperties: { '^x-': {} },
    definitions: sortedDefinitions,
  }
}

export const configSchemaText = (dir = SCHEMAS_DIR) => JSON.stringify(buildConfigSchema(dir), null, 2) + '\n'

export async function buildTypes(dir = SCHEMAS_DIR) {
  const { compile } = await import('json-schema-to-typescript')
  const files = schemaFiles(dir)
  // One synthetic root so that shared definitions become one type each. The config schema and
  // common definitions get no member: the request and response types are built from them.
  const members = files.filter((file) => file !== 'config.schema.json' && file !== 'common.schema.json')
  const rootSchema = {
    title: 'SchemaIndex',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(members.map((file) => [memberName(file), { $ref: file }])),
  }
  const types = await compile(rootSchema, 'SchemaIndex', {
    cwd: dir,
    bannerComment: '/* Generated by scripts/generate.js from schemas/*.json; do not edit. */',
    additionalProperties: false,
    style: { singleQuote: true, semi: false, printWidth: 120 },
    format: true,
  })
  return `${types}
/** The files of schemas/, by name (src/schema/files.ts reads them). */
export const SCHEMA_FILES = ${JSON.stringify(files, null, 2).replaceAll('"', "'")} as const
`
}

const union = (names) => [...new Set(names)].map((name) => `'${name}'`).join(' | ') || 'never'

/** The KindName and NaturalKeyField types: the kinds of schemas/kinds.json and their natural keys. */
export function kindNameText(dir = SCHEMAS_DIR) {
  const kinds = readKinds(dir)
  return `/* Generated by scripts/generate.js from schemas/kinds.json; do not edit. */

/** A kind of resource scansync manages (the registry, src/resources/index.ts, holds their modules). */
export type KindName = ${union(kinds.map((kind) => kind.kind))}

/** A field that identifies a resource declared without id (a kind's \`naturalKey\`). */
export type NaturalKeyField = ${union(kinds.flatMap((kind) => kind.naturalKey ?? []))}
`
}

async function main() {
  const check = process.argv.includes('--check')
  const outputs = [
    [CONFIG_SCHEMA_PATH, configSchemaText()],
  ]
  // The config schema must exist on disk before the types can $ref it.
  if (!check) writeFileSync(CONFIG_SCHEMA_PATH, outputs[0][1])
  outputs.push([TYPES_PATH, await buildTypes()], [KIND_NAME_PATH, kindNameText()])
  let stale = false
  for (const [path, text] of outputs) {
    let current = ''
    try { current = readFileSync(path, 'utf8') } catch {}
    if (current === text) continue
    if (check) {
      console.error(`stale: ${path} (run npm run gen)`)
      stale = true
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, text)
      console.log(`wrote ${path}`)
    }
  }
  process.exit(stale ? 1 : 0)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
