import { statSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import { resolve } from 'node:path'
import { validator } from '../schema/validators.js'
import { readSchema, type JsonSchema } from '../schema/files.js'
import { allSensitiveFields } from '../schema/sensitive-fields.js'
import { isSensitive } from '../schema/sensitivity.js'
import { Diagnostic, formatPath, PathSegments, samePlace, SourcePosition, sortDiagnostics } from '../core/diagnostics.js'
import { findConfigFiles } from './find-files.js'
import { foreignFileMessage } from './foreign-file.js'
import { Env, hasTemplate, interpolate, mayHoldTemplate } from './interpolate.js'
import { anchorLine, missingAnchor, parseYamlFile, ParsedFile, type ReadOptions } from './read-yaml.js'
import { describeSchemaErrors } from './schema-errors.js'
import { compilePolicies, declaredPolicies, type DeclaredPolicy, type PolicyRule } from './policies.js'
import { expandShorthands } from './shorthands.js'
import { identifyDeclared, type SecretsOf } from './identity-checks.js'
import { DesiredResource, JsonObject, KindName, LoadedConfig } from '../core/types.js'
import { configLists } from '../schema/config-lists.js'
import { megabytes, NOT_REGULAR, readConfigFile } from './read-file.js'

export interface LoadOptions {
  env: Env
  cwd?: string
  /** The configuration's secret values, for the identity errors to quote none (identity-checks.ts). */
  secretsOf?: SecretsOf
}

export interface LoadResult {
  config: LoadedConfig
  diagnostics: Diagnostic[]
  /** The files' policy rules, compiled (none when the configuration has errors). */
  policies: PolicyRule[]
}

const KIND_OF_LIST = Object.fromEntries(configLists().map(({ list, kind }) => [list, kind])) as Record<string, KindName>
/** The kind a top-level list holds; undefined for any other key (`constructor` included). */
const kindOfList = (list: unknown): KindName | undefined => (typeof list === 'string' && Object.hasOwn(KIND_OF_LIST, list) ? KIND_OF_LIST[list] : undefined)
/** "targets, assets and agents", for messages. */
const LIST_NAMES = configLists().map(({ list }) => list).join(', ').replace(/, (\w+)$/, ' and $1')

export { MAX_FILE_BYTES } from './limits.js'

/**
 * The most configuration (all files together) this process can hold: what is read is kept, and a
 * plan holds the live state beside it (about 40 bytes of memory per byte of YAML at the peak), so
 * more would end in V8 running out of heap, a crash, instead of a clear error.
 */
export const maxTotalBytes = (): number => Math.floor(getHeapStatistics().heap_size_limit / 40)

/** What reading a configuration file gave: its bytes, why it is not read, or the error reading it. */
type FileRead = { bytes: Buffer } | { problem: string } | { error: unknown }

/**
 * A number or boolean as written at its place (`000123`, `0x1F`, `yes`): the text to put in quotes.
 * Such a scalar holds no space, comma, bracket or `#`; anything else is not offered.
 */
function scalarWritten(parsed: ParsedFile): (path: PathSegments) => string | undefined {
  let lines: string[] | undefined
  return (path) => {
    const at = parsed.locate(path)
    lines ??= parsed.text.split('\n')
    // Not an alias, anchor or tag (`*a`): the value is written elsewhere, or not as it reads.
    const written = /^[^\s,[\]{}#"'*&!][^\s,[\]{}#"']*/.exec((lines[at.line - 1] ?? '').slice(at.column - 1))?.[0]
    return written && !written.endsWith(':') ? written : undefined
  }
}

/** Where a value that reads as null is a comment (`color: #d93f0b`): the word that starts with its `#`. */
function commentWritten(parsed: ParsedFile): (path: PathSegments) => string | undefined {
  let lines: string[] | undefined
  return (path) => {
    const at = parsed.locate(path)
    lines ??= parsed.text.split('\n')
    const line = lines[at.line - 1] ?? ''
    // A comment starts at a # with a space (or the line's start) before it.
    if (at.column > 1 && !/\s/.test(line[at.column - 2] ?? '')) return undefined
    return /^#[^\s#]+/.exec(line.slice(at.column - 1))?.[0]
  }
}

/** Loads, checks and resolves every configuration file under `paths`. Never throws for bad input. */
export async function loadConfig(paths: string[], options: LoadOptions): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd()
  const found = await findConfigFiles(paths, cwd)
  const diagnostics = [...found.diagnostics]
  const resources: DesiredResource[] = []
  const declared: DeclaredId[] = []
  const policies: DeclaredPolicy[] = []

  // Sizes first: a configuration too large to hold is refused before any of it is read. (A FIFO
  // would block the open itself: what is not a regular file is never opened.)
  const kinds = found.files.map((file) => {
    try {
      const info = statSync(resolve(cwd, file))
      return { regular: info.isFile(), size: info.size }
    } catch {
      return { regular: true, size: 0 }
    }
  })
  const total = kinds.reduce((sum, { regular, size }) => sum + (regular ? size : 0), 0)
  if (total > maxTotalBytes()) {
    const message = `the configuration is ${megabytes(total)} in ${found.files.length} ${found.files.length === 1 ? 'file' : 'files'}, more than this process can hold (${megabytes(maxTotalBytes())}); plan it in parts (paths, or --kind and --id)`
    return { config: { files: found.files, resources: [] }, diagnostics: sortDiagnostics([...diagnostics, { file: found.files[0], line: 1, column: 1, path: '', message }]), policies: [] }
  }

  for (const [i, file] of found.files.entries()) {
    // A turn of the event loop between files, so that answers arriving meanwhile are read.
    if (i > 0) await new Promise((resolve) => setImmediate(resolve))
    let read: FileRead
    try {
      read = kinds[i].regular ? readConfigFile(resolve(cwd, file)) : { problem: NOT_REGULAR }
    } catch (error) {
      read = { error }
    }
    if ('error' in read) {
      diagnostics.push({ file, line: 1, column: 1, path: '', message: `cannot read the file: ${(read.error as NodeJS.ErrnoException).code ?? read.error}` })
      continue
    }
    if ('problem' in read) {
      diagnostics.push({ file, line: 1, column: 1, path: '', message: read.problem })
      continue
    }
    const bytes = read.bytes
    // Found by searching the current directory: another tool's YAML is said to be one.
    const result = loadFile(file, bytes, options.env, { notOurs: found.defaulted })
    // One by one: spreading a list of some hundred thousand items into push() overflows the stack.
    for (const diagnostic of result.diagnostics) diagnostics.push(diagnostic)
    for (const resource of result.resources) resources.push(resource)
    for (const id of result.declared) declared.push(id)
    for (const policy of result.policies) policies.push(policy)
  }
  anchorsOfOtherFiles(diagnostics, found.files, cwd)
  for (const diagnostic of findDuplicateIds(declared)) diagnostics.push(diagnostic)
  for (const diagnostic of identifyDeclared(resources, options.secretsOf)) diagnostics.push(diagnostic)
  const compiled = await compilePolicies(policies)
  for (const diagnostic of compiled.diagnostics) diagnostics.push(diagnostic)
  return { config: { files: found.files, resources }, diagnostics: sortDiagnostics(diagnostics), policies: diagnostics.length > 0 ? [] : compiled.rules }
}

/**
 * An alias whose anchor is written in another file of the configuration (the shared blocks kept
 * in one file, the targets in others): anchors reach only the aliases of their own file, so the
 * problem says where that anchor is and why it does not count. Only on this error: the other
 * files are read again, at most once each.
 */
function anchorsOfOtherFiles(diagnostics: Diagnostic[], files: readonly string[], cwd: string): void {
  const texts = new Map<string, string | undefined>()
  const textOf = (file: string): string | undefined => {
    if (!texts.has(file)) {
      let text: string | undefined
      try {
        const read = readConfigFile(resolve(cwd, file))
        if ('bytes' in read) text = read.bytes.toString('utf8')
      } catch {}
      texts.set(file, text)
    }
    return texts.get(file)
  }
  for (const diagnostic of diagnostics) {
    const name = missingAnchor(diagnostic.message)
    if (name === undefined) continue
    for (const file of files) {
      if (file === diagnostic.file) continue
      const text = textOf(file)
      const line = text === undefined ? undefined : anchorLine(text, name)
      if (line === undefined) continue
      diagnostic.message += ` (&${name} is written in ${file} at line ${line}, but an anchor reaches only the aliases of its own file: write the shared block in this file too, under an x- key)`
      break
    }
  }
}

/** An id as written, for the check that ids are unique (made even when a file has other errors). */
export interface DeclaredId {
  kind: KindName
  id: string
  /** Where the id is written, and its place in the file (`targets[0].id`). */
  position: SourcePosition
  path: string
  /** Where the resource is declared (its item in the list). */
  item: SourcePosition
}

export interface LoadFileResult {
  /** The file's resources; none when the file has errors. */
  resources: DesiredResource[]
  declared: DeclaredId[]
  diagnostics: Diagnostic[]
  /** The file's policy rules, not yet compiled; none when the file has errors. */
  policies: DeclaredPolicy[]
}

/** Loads one file's text. Exposed for tests and the fuzzer. */
export function loadFile(file: string, bytes: Buffer, env: Env, options: ReadOptions & { notOurs?: boolean } = {}): LoadFileResult {
  const result = loadParsedFile(file, bytes, env, options)
  if (result.diagnostics.length > 0) hintUnicodeSpaces(result.diagnostics, bytes)
  return result
}

/**
 * A space other than U+0020 and the tab (U+00A0 from Word or Outlook, U+202F, U+2000–U+200A,
 * U+3000) where YAML needs a space: in a line's indentation, after a list's dash or after the
 * colon of its first key. YAML reads it as a letter, and no editor shows it.
 */
const UNICODE_SPACE = '\u00a0\u2000-\u200a\u202f\u3000'
// `\\s` doubled: in a template string `\s` is a plain `s`, and a key starting with one (`site:`) was
// never matched. A quoted key (`"name":`) is a key too.
const MISPLACED_SPACE = new RegExp(`^[ \t${UNICODE_SPACE}]*?(?:-|[^\\s:#{[][^:#]*:)?(?=[${UNICODE_SPACE}])`)

/** Each error on a line that holds such a space says where it is (the parser's words and the schema's name only the effect). */
function hintUnicodeSpaces(diagnostics: Diagnostic[], bytes: Buffer): void {
  let lines: string[] | undefined
  for (const diagnostic of diagnostics) {
    lines ??= bytes.toString('utf8').replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
    const line = lines[diagnostic.line - 1]
    const at = line === undefined ? null : MISPLACED_SPACE.exec(line)
    if (!at || diagnostic.message.includes('non-breaking space')) continue
    const code = line!.charCodeAt(at[0].length)
    const what = code === 0xa0 ? 'a non-breaking space (U+00A0)' : `a Unicode space (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
    diagnostic.message += ` (the line holds ${what}, which YAML reads as a letter, not as a space (text pasted from a word processor or a mail brings them): type a plain space instead, at column ${at[0].length + 1})`
  }
}

function loadParsedFile(file: string, bytes: Buffer, env: Env, options: ReadOptions & { notOurs?: boolean }): LoadFileResult {
  const { parsed, diagnostics } = parseYamlFile(file, bytes, options)
  const atStart = (message: string): LoadFileResult => ({ resources: [], declared: [], diagnostics: [{ file, line: 1, column: 1, path: '', message }], policies: [] })
  if (!parsed) return { resources: [], declared: [], diagnostics, policies: [] }
  const data = parsed.data
  const expected = `expected a mapping with any of the lists ${LIST_NAMES}`
  if (data === null || data === undefined) return atStart(`the file is empty; ${expected}`)
  if (typeof data !== 'object' || Array.isArray(data)) {
    const position = parsed.locate([])
    return { resources: [], declared: [], diagnostics: [{ ...position, path: '', message: `the top level is ${Array.isArray(data) ? 'a list' : 'a single value'}; ${expected}` }], policies: [] }
  }
  const foreign = options.notOurs ? foreignFileMessage(data) : undefined
  if (foreign) return atStart(foreign)

  const top = data as JsonObject
  // x-… keys are a home for anchors: what they hold is used through aliases and merge keys, never by itself.
  for (const key of Object.keys(top)) if (key.startsWith('x-')) delete top[key]
  const declared = declaredIds(top, parsed)
  // Rules are JSON Schemas, not values to send: `${…}` in them is not a variable.
  const rules = Object.hasOwn(top, 'policies') ? top.policies : undefined
  delete top.policies
  const { templates, unresolved } = mayHoldTemplate(parsed.text)
    ? resolveVariables(top, env, parsed, diagnostics)
    : { templates: new Map<string, string>(), unresolved: new Set<string>() }
  if (rules !== undefined) top.policies = rules
  const isSensitive = (path: PathSegments) => templates.has(formatPath(path)) || secretByItsPlace(data as JsonObject, path)
  const validate = validator('config')
  if (!validate(data)) {
    for (const problem of describeSchemaErrors(validate.errors ?? [], { isSensitive, name: (path) => nameOf(data as JsonObject, path), written: scalarWritten(parsed), comment: commentWritten(parsed), schemaFile: 'config.schema.json' })) {
      const place = formatPath(problem.path)
      // A variable that is not set was reported as such; its empty stand-in is no further news.
      if (unresolved.has(place)) continue
      const position = parsed.locate(problem.path, { key: problem.atKey })
      diagnostics.push({ ...position, path: place, message: problem.message, subject: resourceNamed(data as JsonObject, problem.path) })
    }
  }
  if (diagnostics.length > 0) {
    // The rules the schema found nothing wrong in, or nothing in what compiling reads (a wrong
    // `level` or `description`), are still compiled: what else is wrong with them is said in the same run.
    const broken = new Set(diagnostics.map((d) => /^policies\[(\d+)\](?:\.(name|kind|when|require)\b|$)/.exec(d.path)?.[1]))
    const sound = diagnostics.some((d) => d.path === 'policies') ? [] : declaredPolicies(rules, parsed, (i) => !broken.has(String(i)))
    return { resources: [], declared, diagnostics, policies: sound }
  }
  const policies = declaredPolicies(rules, parsed)
  delete top.policies

  expandShorthands(data, readSchema('config.schema.json'), templates.size === 0 ? undefined : (path, member) => {
    // A value that came from a variable now sits one level down, as the shorthand's member.
    const template = templates.get(formatPath(path))
    if (template === undefined) return
    templates.delete(formatPath(path))
    templates.set(formatPath([...path, member]), template)
  })
  return { resources: collectResources(data as JsonObject, parsed, templates), declared, diagnostics, policies }
}

function declaredIds(data: JsonObject, parsed: ParsedFile): DeclaredId[] {
  const declared: DeclaredId[] = []
  for (const { kind, list } of configLists()) {
    const items = Object.hasOwn(data, list) ? data[list] : undefined
    if (!Array.isArray(items)) continue
    items.forEach((item: unknown, index) => {
      const id = item !== null && typeof item === 'object' && Object.hasOwn(item, 'id') ? (item as JsonObject).id : undefined
      if (typeof id === 'string' && id !== '') declared.push(new Declared(kind, id, parsed, list, index))
    })
  }
  return declared
}

/** A declared id. Where it is written matters only if it turns out to be declared twice. */
class Declared implements DeclaredId {
  constructor(
    readonly kind: KindName,
    readonly id: string,
    private readonly parsed: ParsedFile,
    private readonly list: string,
    private readonly index: number,
  ) {}

  get position(): SourcePosition {
    return this.parsed.locate([this.list, this.index, 'id'])
  }

  get path(): string {
    return formatPath([this.list, this.index, 'id'])
  }

  get item(): SourcePosition {
    return this.parsed.locate([this.list, this.index])
  }
}

/**
 * Replaces `${…}` in every string in place. Returns the templates by their dotted place, and the
 * places whose variable was not set.
 */
function resolveVariables(
  data: JsonObject,
  env: Env,
  parsed: ParsedFile,
  diagnostics: Diagnostic[],
): { templates: Map<string, string>; unresolved: Set<string> } {
  const templates = new Map<string, string>()
  const unresolved = new Set<string>()
  // The place of the value being looked at, as a stack (copied only for a value with a template).
  const path: Array<string | number> = []
  const resolve = (container: Record<string | number, unknown>, key: string | number, value: string) => {
    const here = [...path, key]
    const place = formatPath(here)
    const result = interpolate(value, env)
    if (result.fromVariable && here.length === 3 && kindOfList(here[0]) && typeof here[1] === 'number' && here[2] === 'id') {
      // A value from a variable is a secret, and an id is in every plan, report, URL and log
      // line: it could not be kept out of sight. The id stays as written (no value to repeat).
      diagnostics.push({
        ...parsed.locate(here),
        path: place,
        message: `${place}: an id cannot come from a variable (${value}): values from variables are secrets, and an id is shown in every plan and sent in every URL; write the id itself`,
      })
      unresolved.add(place)
      return
    }
    for (const error of result.errors) {
      diagnostics.push({ ...parsed.locate(here), path: place, message: `${nameOf(data, here)}: ${error}`, subject: resourceNamed(data, here) })
    }
    if (result.errors.length > 0) unresolved.add(place)
    container[key] = result.value
    if (result.fromVariable) templates.set(place, value)
  }
  // Every value is looked at, most of them strings without a template: the walk is one function,
  // and only a string with `${` goes further.
  const visit = (container: JsonObject | unknown[]): void => {
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const value = container[i]
        if (typeof value === 'string') {
          if (hasTemplate(value)) resolve(container as unknown as Record<number, unknown>, i, value)
        } else if (value !== null && typeof value === 'object') {
          path.push(i)
          visit(value as JsonObject | unknown[])
          path.pop()
        }
      }
      return
    }
    const keys = Object.keys(container)
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]
      const value = container[key]
      if (typeof value === 'string') {
        if (hasTemplate(value)) resolve(container, key, value)
      } else if (value !== null && typeof value === 'object') {
        path.push(key)
        visit(value as JsonObject | unknown[])
        path.pop()
      }
    }
  }
  visit(data)
  return { templates, unresolved }
}

/**
 * Whether the value at `path` is a secret by its place, as the one sensitivity rule decides (a
 * diagnostic never repeats it, even written in clear in the YAML): a password, a field the
 * schemas mark `x-sensitive`, a `<name>_is_sensitive` flag beside it, a credential-named entry.
 */
function secretByItsPlace(data: JsonObject, path: PathSegments): boolean {
  const name = path.at(-1)
  if (typeof name !== 'string') return false
  let parent: unknown = data
  for (const segment of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, segment)) return false
    parent = (parent as Record<string | number, unknown>)[segment]
  }
  // The place inside its resource without list indexes (`site.otp_secret`), as the schemas name it.
  const rulePath = path.slice(2).filter((segment) => typeof segment === 'string').join('.')
  return isSensitive({ member: name, rulePath, containers: [parent], sensitiveFields: allSensitiveFields() })
}

/** `target 2DZkoZH8WMEM: site.name`, or `targets[3]: site.name` before the id is known. */
function nameOf(data: JsonObject, path: PathSegments): string {
  const resource = resourceNamed(data, path)
  if (resource === undefined) return formatPath(path)
  return path.length > 2 ? `${resource}: ${formatPath(path.slice(2))}` : resource
}

/** The resource a place lies in, as messages name it (`target a1`, or `targets[3]` without an id). */
function resourceNamed(data: JsonObject, path: PathSegments): string | undefined {
  const [list, index] = path
  const kind = kindOfList(list)
  if (!kind || typeof index !== 'number') return undefined
  const item = (data[list as string] as unknown[] | undefined)?.[index] as JsonObject | undefined
  const id = item && typeof item === 'object' && typeof item.id === 'string' ? item.id : undefined
  return id ? `${kind} ${id}` : `${list}[${index}]`
}

const RESOURCE_PLACE = /^([a-z]+)\[(\d+)\]\.(.+)$/

function collectResources(data: JsonObject, parsed: ParsedFile, templates: Map<string, string>): DesiredResource[] {
  // Templates by resource (`targets[3]`), then by place inside it (`site.basic_auth.password`).
  const byResource = new Map<string, Map<string, string>>()
  for (const [place, template] of templates) {
    const match = RESOURCE_PLACE.exec(place)
    if (!match) continue
    const resource = `${match[1]}[${match[2]}]`
    let own = byResource.get(resource)
    if (!own) byResource.set(resource, (own = new Map()))
    own.set(match[3], template)
  }
  const resources: DesiredResource[] = []
  for (const { kind, list } of configLists()) {
    const items = (data[list] ?? []) as JsonObject[]
    items.forEach((item, index) => {
      const { id, ...fields } = item
      resources.push({
        kind,
        id: id as string,
        fields,
        templates: (templates.size > 0 && byResource.get(`${list}[${index}]`)) || new Map(),
        // Positions cost a `yaml` parse of the file; read-yaml.ts works them out when first read.
        source: parsed.locate([list, index]),
        locate: (path) => parsed.locate([list, index, ...path]),
      })
    })
  }
  return resources
}

function findDuplicateIds(declared: DeclaredId[]): Diagnostic[] {
  const first = new Map<string, DeclaredId>()
  const diagnostics: Diagnostic[] = []
  // Two declarations taking the id from one anchor are shown where each is declared, not at that anchor twice.
  const placeOf = (d: DeclaredId, other: DeclaredId) => (samePlace(d.position, other.position) ? d.item : d.position)
  const where = (d: DeclaredId, other: DeclaredId) => `${placeOf(d, other).file}:${placeOf(d, other).line}`
  for (const entry of declared) {
    const key = `${entry.kind}/${entry.id}`
    const earlier = first.get(key)
    if (!earlier) {
      first.set(key, entry)
      continue
    }
    const message = (other: DeclaredId, self: DeclaredId) => `${entry.kind} ${entry.id} is declared twice: here and at ${where(other, self)}`
    diagnostics.push({ ...placeOf(entry, earlier), path: entry.path, message: message(earlier, entry) })
    diagnostics.push({ ...placeOf(earlier, entry), path: earlier.path, message: message(entry, earlier) })
  }
  return diagnostics
}

export type { JsonSchema }
