import { readFile, writeFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { validator } from '../schema/validators.js'
import type { DesiredResource, JsonObject, KindName } from '../core/types.js'
import { escapeTemplate, interpolate } from '../config/interpolate.js'
import { ScansyncError } from '../core/errors.js'
import type { PlanDocument, SavedPlan } from '../schema/generated.js'
import type { Io } from '../core/io.js'
import { canonicalJson, sha256 } from './canonical.js'
import type { Comparison, PlanResult } from './build-plan.js'
import type { FieldChange, Plan, ResourceChange } from './model.js'
import { isObject } from '../core/json.js'
import { declaredSecrets } from '../secrets/redact.js'

type SavedResource = SavedPlan['resources'][number]

/** Maps every string of a value (objects and lists deeply); `place` is its dotted place with list indexes. */
function mapStrings(value: unknown, map: (text: string, place: string) => string, place = ''): unknown {
  if (typeof value === 'string') return map(value, place)
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, map, `${place}[${i}]`))
  if (isObject(value)) {
    const out: JsonObject = {}
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: mapStrings(item, map, place ? `${place}.${key}` : key), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}

/** The declaration as templates: secrets as their ${NAME} reference, every other `${` escaped. */
const templatedFields = (desired: DesiredResource): JsonObject =>
  mapStrings(desired.fields, (text, place) => desired.templates.get(place) ?? escapeTemplate(text)) as JsonObject

function savedResource(comparison: Comparison): SavedResource {
  const { kind, desired, live, raw, units, fingerprint } = comparison
  const templated: DesiredResource = { ...desired, fields: templatedFields(desired) }
  const request = kind.buildRequest({ desired: templated, live: mapStrings(live, escapeTemplate) as JsonObject, raw, units })
  return { kind: kind.name, id: desired.id, source: desired.source, fields: templated.fields, fingerprint, request }
}

export const savedPlanChecksum = (document: Omit<SavedPlan, 'checksum'>): string => sha256(canonicalJson(document))

/**
 * A saved plan holds secrets only as their `${NAME}` reference. A secret written in the YAML
 * itself (flagged `*_is_sensitive`, or an otp_secret) has no reference to keep, so a plan that
 * would have to store it is refused, naming each place, before anything is written.
 */
function refuseLiteralSecrets(comparisons: Comparison[]): void {
  const places = comparisons.flatMap(({ desired }) =>
    declaredSecrets(desired)
      .filter((secret) => !secret.fromVariable)
      .map((secret) => {
        const where = desired.locate(secret.segments)
        return `${where.file}:${where.line}: ${desired.kind} ${desired.id}: ${secret.place}`
      }),
  )
  if (places.length === 0) return
  throw new ScansyncError(
    `cannot save the plan: a saved plan keeps secrets only as \${NAME} references, and ${places.length === 1 ? 'this secret is' : 'these secrets are'} written in the YAML itself:\n  ${places.join('\n  ')}\n` +
      'Move each into an environment variable (value: ${MY_SECRET}), or apply without a saved plan.',
  )
}

/** What a saved plan is made of; the caller (above plan/) renders the plan document and knows the version. */
export interface SavedPlanInput {
  result: PlanResult
  apiUrl: string
  /** The plan as `plan --format json` writes it. */
  document: PlanDocument
  version: string
}

/** The saved plan of a prepared plan (refused when it would have to hold a secret). */
export function savedPlanDocument(input: SavedPlanInput, paths: string[], io: Io): SavedPlan {
  refuseLiteralSecrets(input.result.changed)
  const document: Omit<SavedPlan, 'checksum'> = {
    format_version: 1,
    kind: 'scansync-saved-plan',
    scansync_version: input.version,
    api_url: input.apiUrl,
    paths: paths.map((p) => relative(io.cwd, resolve(io.cwd, p)) || '.'),
    plan: input.document,
    resources: input.result.changed.map(savedResource),
  }
  return { ...document, checksum: savedPlanChecksum(document) }
}

export async function writeSavedPlan(file: string, saved: SavedPlan, io: Io): Promise<void> {
  await writeFile(resolve(io.cwd, file), JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 })
}

/** A saved plan, checked: its shape and its checksum. */
export async function readSavedPlan(file: string, io: Io): Promise<SavedPlan> {
  let document: unknown
  try {
    document = JSON.parse(await readFile(resolve(io.cwd, file), 'utf8'))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON'
    throw new ScansyncError(`cannot read the saved plan ${file}: ${reason}`)
  }
  const validate = validator('savedPlan')
  if (!validate(document)) throw new ScansyncError(`${file} is not a scansync saved plan (${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message})`)
  const { checksum, ...rest } = document as SavedPlan
  if (savedPlanChecksum(rest) !== checksum) throw new ScansyncError(`${file} was modified after it was written (checksum mismatch); run scansync plan --out again`)
  return document as SavedPlan
}

/** A saved resource as a declared resource again, its templates resolved from the environment. */
export function restoreDesired(saved: SavedResource, env: Io['env']): DesiredResource {
  const templates = new Map<string, string>()
  const errors: string[] = []
  const resolveText = (text: string, place: string) => {
    const result = interpolate(text, env)
    errors.push(...result.errors.map((e) => `${saved.kind} ${saved.id}: ${place}: ${e}`))
    if (result.fromVariable) templates.set(place, text)
    return result.value
  }
  const fields = mapStrings(saved.fields, resolveText) as JsonObject
  if (errors.length > 0) throw new ScansyncError(errors.join('\n'))
  const source = saved.source ?? { file: '(saved plan)', line: 1, column: 1 }
  return { kind: saved.kind as KindName, id: saved.id, fields, templates, source, locate: () => source }
}

export const resolveBody = (body: JsonObject, env: Io['env']): JsonObject => mapStrings(body, (text) => interpolate(text, env).value) as JsonObject

/** The plan's changes, as the plan model (for reports). */
export function savedChanges(saved: SavedPlan): ResourceChange[] {
  const sourceOf = (kind: string, id: string) => saved.resources.find((r) => r.kind === kind && r.id === id)?.source
  return saved.plan.changes.map((change) => ({
    ...(sourceOf(change.kind, change.id) ? { source: sourceOf(change.kind, change.id) } : {}),
    kind: change.kind,
    id: change.id,
    name: change.name ?? null,
    action: 'update',
    method: change.method,
    path: change.path,
    fields: change.fields.map((f) => ({
      path: f.path,
      before: f.before ?? undefined,
      after: f.after ?? undefined,
      sensitive: f.sensitive,
      ...(f.reason ? { reason: f.reason as FieldChange['reason'] } : {}),
    })),
  }))
}

export const savedPlanModel = (saved: SavedPlan): Plan => ({ changes: savedChanges(saved), summary: { ...saved.plan.summary } })

