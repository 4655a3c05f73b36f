import type { ErrorObject, ValidateFunction } from 'ajv'
import { createAjv } from '../schema/ajv.js'
import type { AgentPatchRequest, AssetPutRequest, TargetCreateRequest, TargetPatchRequest } from '../schema/generated.js'
import type { EmulatorKind } from './types.js'
import { isObject, type JsonObject } from './values.js'

/** A 400 body as Django REST framework writes it: messages by field, nested like the request. */
export type DrfErrors = JsonObject

export interface RequestOf {
  target: TargetPatchRequest
  asset: AssetPutRequest
  agent: AgentPatchRequest
}

export type Validation<K extends EmulatorKind> = { ok: true; value: RequestOf[K] } | { ok: false; errors: DrfErrors }

/** What a request may refer to. */
export interface References {
  hasAgent(id: string): boolean
  hasTeam(id: string): boolean
}

const SCHEMA_OF: Record<EmulatorKind, string> = {
  target: 'target-patch.request.schema.json',
  asset: 'asset-put.request.schema.json',
  agent: 'agent-patch.request.schema.json',
}

const CREATE_SCHEMA = 'target-create.request.schema.json'

/** The validator of each write, and of `POST /targets/` under `create`. */
let validators: Record<EmulatorKind | 'create', ValidateFunction> | undefined

/** Compiled once per process: unknown members are removed, as the service ignores them. */
function validatorFor(write: EmulatorKind | 'create'): ValidateFunction {
  if (!validators) {
    const ajv = createAjv({ removeAdditional: true, allErrors: true, verbose: true })
    const get = (name: string) => ajv.getSchema(name) ?? fail(`schema ${name} is missing`)
    validators = { target: get(SCHEMA_OF.target), asset: get(SCHEMA_OF.asset), agent: get(SCHEMA_OF.agent), create: get(CREATE_SCHEMA) }
  }
  return validators[write]
}

function fail(message: string): never {
  throw new Error(message)
}

/**
 * Checks a write body against its request schema and its references. The body is modified
 * (unknown members removed, api_scan_settings given inside `site` moved to the top level).
 */
export function validateWrite<K extends EmulatorKind>(kind: K, body: unknown, references: References): Validation<K> {
  return check(kind, validatorFor(kind), body, references) as Validation<K>
}

/** Checks a `POST /targets/` body: the PATCH fields, with `site.name` and `site.url` required. */
export function validateTargetCreate(body: unknown, references: References): { ok: true; value: TargetCreateRequest } | { ok: false; errors: DrfErrors } {
  return check('target', validatorFor('create'), body, references) as { ok: true; value: TargetCreateRequest } | { ok: false; errors: DrfErrors }
}

function check(kind: EmulatorKind, validate: ValidateFunction, body: unknown, references: References): Validation<EmulatorKind> {
  const inSite = kind === 'target' && liftApiScanSettings(body)
  const tree = new ErrorTree()
  if (!validate(body)) {
    for (const error of keepFirstPerPlace(validate.errors ?? [])) {
      const { path, message } = drfMessage(error)
      tree.add(inSite && path[0] === 'api_scan_settings' ? ['site', ...path] : path, message)
    }
  } else {
    for (const [path, message] of referenceErrors(kind, body as JsonObject, references)) tree.add(path, message)
  }
  return tree.empty ? { ok: true, value: body as RequestOf[EmulatorKind] } : { ok: false, errors: tree.render(body) }
}

/** `site.api_scan_settings` is accepted too; returns whether it was given there. */
function liftApiScanSettings(body: unknown): boolean {
  if (!isObject(body) || !isObject(body.site) || !('api_scan_settings' in body.site)) return false
  const { api_scan_settings: inSite, ...site } = body.site
  body.site = site
  body.api_scan_settings = isObject(inSite) && isObject(body.api_scan_settings) ? { ...inSite, ...body.api_scan_settings } : (body.api_scan_settings ?? inSite)
  return true
}

function* referenceErrors(kind: EmulatorKind, body: JsonObject, references: References): Generator<[string[], string]> {
  const invalid = (id: string) => `Invalid pk "${id}" - object does not exist.`
  if (kind === 'target' && isObject(body.scanning_agent)) {
    const id = body.scanning_agent.id as string
    if (!references.hasAgent(id)) yield [['scanning_agent'], invalid(id)]
  }
  if (kind === 'agent' && Array.isArray(body.teams)) {
    for (const team of body.teams as { id: string }[]) if (!references.hasTeam(team.id)) yield [['teams'], invalid(team.id)]
  }
}

/** One error per place: a wrong type hides the other complaints about the same value. */
function keepFirstPerPlace(errors: ErrorObject[]): ErrorObject[] {
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath))
  const seen = new Set<string>()
  return errors.filter((e) => {
    if (typed.has(e.instancePath) && e.keyword !== 'type') return false
    const key = `${e.instancePath}\0${e.keyword}\0${e.keyword === 'required' ? e.params.missingProperty : ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const PYTHON_TYPE: Record<string, string> = { string: 'str', number: 'float', boolean: 'bool', object: 'dict' }

function pythonType(value: unknown): string {
  if (value === null) return 'NoneType'
  if (Array.isArray(value)) return 'list'
  if (Number.isInteger(value)) return 'int'
  return PYTHON_TYPE[typeof value] ?? typeof value
}

/** An Ajv error as DRF would word it, at its place. Never quotes a value, except a rejected choice. */
function drfMessage(error: ErrorObject): { path: string[]; message: string } {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const params = error.params as Record<string, unknown>
  const value: unknown = error.data
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params.missingProperty)], message: 'This field is required.' }
    case 'type': {
      const expected = String(params.type)
      if (value === null) return { path, message: 'This field may not be null.' }
      if (expected.includes('object')) return { path: [...path, 'non_field_errors'], message: `Invalid data. Expected a dictionary, but got ${pythonType(value)}.` }
      if (expected.includes('array')) return { path, message: `Expected a list of items but got type "${pythonType(value)}".` }
      if (expected.includes('string')) return { path, message: 'Not a valid string.' }
      if (expected.includes('boolean')) return { path, message: 'Must be a valid boolean.' }
      if (expected.includes('integer')) return { path, message: 'A valid integer is required.' }
      return { path, message: 'A valid number is required.' }
    }
    case 'maxLength':
      return { path, message: `Ensure this field has no more than ${params.limit} characters.` }
    case 'minLength':
      return { path, message: params.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${params.limit} characters.` }
    case 'enum':
      return { path, message: value === null ? 'This field may not be null.' : `"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a valid choice.` }
    case 'format':
      return { path, message: params.format === 'uri' ? 'Enter a valid URL.' : `Enter a valid ${params.format}.` }
    case 'pattern':
      if (error.schemaPath.includes('/definitions/time/')) return { path, message: 'Time has wrong format. Use one of these formats instead: hh:mm.' }
      return { path, message: patternMessage(error) }
    case 'minimum':
      return { path, message: `Ensure this value is greater than or equal to ${params.limit}.` }
    case 'maximum':
      return { path, message: `Ensure this value is less than or equal to ${params.limit}.` }
    case 'uniqueItems':
      return { path, message: 'This list may not hold the same value twice.' }
    default:
      return { path, message: `Invalid value: ${error.message ?? error.keyword}.` }
  }
}

function patternMessage(error: ErrorObject): string {
  const hint = error.parentSchema?.['x-error']
  if (typeof hint !== 'string') return 'This value does not match the required pattern.'
  return 'This value ' + hint + '.'
}

interface ErrorNode {
  messages: string[]
  children: Map<string, ErrorNode>
}

/** Collects messages by place and renders them the way DRF nests them. */
class ErrorTree {
  private readonly root: ErrorNode = { messages: [], children: new Map() }
  empty = true

  add(path: string[], message: string): void {
    let node = this.root
    for (const segment of path) {
      let child = node.children.get(segment)
      if (!child) node.children.set(segment, (child = { messages: [], children: new Map() }))
      node = child
    }
    if (!node.messages.includes(message)) node.messages.push(message)
    this.empty = false
  }

  render(body: unknown): DrfErrors {
    const out = renderNode(this.root, body)
    return Array.isArray(out) ? { non_field_errors: out } : (out as DrfErrors)
  }
}

/**
 * A list of objects gives an array with `{}` for the items without errors
 * (`{"labels": [{}, {"name": [...]}]}`); a list of plain values gives messages by index
 * (`{"weekdays": {"1": [...]}}`), as DRF's ListSerializer and ListField do.
 */
function renderNode(node: ErrorNode, data: unknown): unknown {
  if (node.children.size === 0) return node.messages
  if (Array.isArray(data)) {
    const ofObjects = [...node.children.values()].some((child) => child.children.size > 0)
    if (ofObjects) return data.map((item, index) => {
      const child = node.children.get(String(index))
      return child ? renderNode(child, item) : {}
    })
    return Object.fromEntries([...node.children].map(([index, child]) => [index, child.messages]))
  }
  const out: JsonObject = {}
  for (const [key, child] of node.children) out[key] = renderNode(child, isObject(data) ? data[key] : undefined)
  if (node.messages.length > 0) out.non_field_errors = [...((out.non_field_errors as string[] | undefined) ?? []), ...node.messages]
  return out
}
