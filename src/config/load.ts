import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ValidateFunction } from 'ajv'
import { createAjv } from '../ajv.js'
import { readSchema, type JsonSchema } from '../schemas.js'
import { Diagnostic, formatPath, PathSegments, sortDiagnostics } from './diagnostics.js'
import { findConfigFiles } from './find-files.js'
import { Env, hasTemplate, interpolate } from './interpolate.js'
import { parseYamlFile, ParsedFile } from './read-yaml.js'
import { describeSchemaErrors } from './schema-errors.js'
import { expandShorthands } from './shorthands.js'
import { DesiredResource, JsonObject, KIND_NAMES, KindName, LIST_OF_KIND, LoadedConfig } from './types.js'

export interface LoadOptions {
  env: Env
  cwd?: string
}

export interface LoadResult {
  config: LoadedConfig
  diagnostics: Diagnostic[]
}

const KIND_OF_LIST = Object.fromEntries(KIND_NAMES.map((kind) => [LIST_OF_KIND[kind], kind])) as Record<string, KindName>

let validator: ValidateFunction | undefined
function configValidator(): ValidateFunction {
  validator ??= createAjv({ verbose: true }).getSchema('config.schema.json')!
  return validator
}

/** Loads, checks and resolves every configuration file under `paths`. Never throws for bad input. */
export async function loadConfig(paths: string[], options: LoadOptions): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd()
  const found = await findConfigFiles(paths, cwd)
  const diagnostics = [...found.diagnostics]
  const resources: DesiredResource[] = []

  for (const file of found.files) {
    let bytes: Buffer
    try {
      bytes = await readFile(resolve(cwd, file))
    } catch (error) {
      diagnostics.push({ file, line: 1, column: 1, path: '', message: `cannot read the file: ${(error as NodeJS.ErrnoException).code ?? error}` })
      continue
    }
    const result = loadFile(file, bytes, options.env)
    diagnostics.push(...result.diagnostics)
    resources.push(...result.resources)
  }
  diagnostics.push(...findDuplicateIds(resources))
  return { config: { files: found.files, resources }, diagnostics: sortDiagnostics(diagnostics) }
}

/** Loads one file's text. Exposed for tests and the fuzzer. */
export function loadFile(file: string, bytes: Buffer, env: Env): { resources: DesiredResource[]; diagnostics: Diagnostic[] } {
  const { parsed, diagnostics } = parseYamlFile(file, bytes)
  if (!parsed) return { resources: [], diagnostics }
  const data = parsed.data
  const atStart = (message: string) => ({ resources: [], diagnostics: [{ file, line: 1, column: 1, path: '', message }] })
  const expected = 'expected a mapping with any of the lists targets, assets and agents'
  if (data === null || data === undefined) return atStart(`the file is empty; ${expected}`)
  if (typeof data !== 'object' || Array.isArray(data)) {
    const position = parsed.locate([])
    return { resources: [], diagnostics: [{ ...position, path: '', message: `the top level is ${Array.isArray(data) ? 'a list' : 'a single value'}; ${expected}` }] }
  }

  const templates = resolveVariables(data as JsonObject, env, parsed, diagnostics)
  const isSensitive = (path: PathSegments) => templates.has(formatPath(path))
  const validate = configValidator()
  if (!validate(data)) {
    for (const problem of describeSchemaErrors(validate.errors ?? [], { isSensitive, name: (path) => nameOf(data as JsonObject, path) })) {
      const position = parsed.locate(problem.path, { key: problem.atKey })
      diagnostics.push({ ...position, path: formatPath(problem.path), message: problem.message })
    }
  }
  if (diagnostics.length > 0) return { resources: [], diagnostics }

  expandShorthands(data, readSchema('config.schema.json'))
  return { resources: collectResources(data as JsonObject, parsed, templates), diagnostics }
}

/** Replaces `${…}` in every string in place; returns the templates by their dotted place. */
function resolveVariables(data: JsonObject, env: Env, parsed: ParsedFile, diagnostics: Diagnostic[]): Map<string, string> {
  const templates = new Map<string, string>()
  const visit = (container: JsonObject | unknown[], path: Array<string | number>) => {
    const keys: Array<string | number> = Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container)
    for (const key of keys) {
      const value = (container as Record<string | number, unknown>)[key]
      const here = [...path, key]
      if (typeof value === 'string') {
        if (!hasTemplate(value)) continue
        const result = interpolate(value, env)
        for (const error of result.errors) {
          diagnostics.push({ ...parsed.locate(here), path: formatPath(here), message: `${nameOf(data, here)}: ${error}` })
        }
        ;(container as Record<string | number, unknown>)[key] = result.value
        if (result.fromVariable) templates.set(formatPath(here), value)
      } else if (value !== null && typeof value === 'object') {
        visit(value as JsonObject, here)
      }
    }
  }
  visit(data, [])
  return templates
}

/** `target 2DZkoZH8WMEM: site.name`, or `targets[3]: site.name` before the id is known. */
function nameOf(data: JsonObject, path: PathSegments): string {
  const [list, index, ...rest] = path
  const kind = typeof list === 'string' ? KIND_OF_LIST[list] : undefined
  if (!kind || typeof index !== 'number') return formatPath(path)
  const item = (data[list as string] as unknown[] | undefined)?.[index] as JsonObject | undefined
  const id = item && typeof item === 'object' && typeof item.id === 'string' ? item.id : undefined
  const resource = id ? `${kind} ${id}` : `${list}[${index}]`
  return rest.length > 0 ? `${resource}: ${formatPath(rest)}` : resource
}

function collectResources(data: JsonObject, parsed: ParsedFile, templates: Map<string, string>): DesiredResource[] {
  const resources: DesiredResource[] = []
  for (const kind of KIND_NAMES) {
    const list = LIST_OF_KIND[kind]
    const items = (data[list] ?? []) as JsonObject[]
    items.forEach((item, index) => {
      const { id, ...fields } = item
      const prefix = formatPath([list, index])
      const own = new Map<string, string>()
      for (const [place, template] of templates) {
        if (place.startsWith(prefix + '.')) own.set(place.slice(prefix.length + 1), template)
      }
      resources.push({
        kind,
        id: id as string,
        fields,
        templates: own,
        source: parsed.locate([list, index]),
        locate: (path) => parsed.locate([list, index, ...path]),
      })
    })
  }
  return resources
}

function findDuplicateIds(resources: DesiredResource[]): Diagnostic[] {
  const first = new Map<string, DesiredResource>()
  const diagnostics: Diagnostic[] = []
  for (const resource of resources) {
    const key = `${resource.kind}/${resource.id}`
    const earlier = first.get(key)
    if (!earlier) {
      first.set(key, resource)
      continue
    }
    const where = (r: DesiredResource) => `${r.source.file}:${r.source.line}`
    diagnostics.push({
      ...resource.locate(['id']),
      path: 'id',
      message: `${resource.kind} ${resource.id} is declared twice: here and at ${where(earlier)}`,
    })
    diagnostics.push({
      ...earlier.locate(['id']),
      path: 'id',
      message: `${resource.kind} ${resource.id} is declared twice: here and at ${where(resource)}`,
    })
  }
  return diagnostics
}

export type { JsonSchema }
