// Shared set-up of the import tests: an emulator on 127.0.0.1, output directories in tmp, and
// scansync import / plan / apply / validate run in-process against it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runApply } from '../../src/cli/run/apply.js'
import { runImport, type ImportOptions } from '../../src/cli/run/import.js'
import { runPlan } from '../../src/cli/run/plan.js'
import { runValidate } from '../../src/cli/run/validate.js'
import type { JsonObject, KindName } from '../../src/core/types.js'
import type { Emulator } from '../../src/emulator/index.js'
import type { Plan } from '../../src/plan/model.js'
import { KINDS } from '../../src/resources/index.js'
import { isObject } from '../../src/core/json.js'
import { captureIo, ROOT, type CapturedIo } from '../helpers/cli.js'
import { emulatorWith, exampleSeed, temporaryDirectory } from '../helpers/emulator.js'

export { ROOT }

/** Long and unusual, so that finding it in any output cannot happen by chance. */
export const TOKEN = 'import-Tok3n-5e1b9c07a4d2'

export { exampleSeed }

export const emulator = emulatorWith(TOKEN)

export const tempDir = (): string => temporaryDirectory('scansync-import-')

export const connection = (em: Emulator, extra: Record<string, string> = {}) => ({ SCANSYNC_API_URL: em.url, SCANSYNC_API_TOKEN: TOKEN, ...extra })

export interface Run {
  code: number
  out: string
  err: string
}

const finish = async (io: CapturedIo, code: Promise<number>): Promise<Run> => ({ code: await code, out: io.out(), err: io.err() })

/** Import in-process; secrets as `${VARIABLE}` references unless `secrets: 'omit'` (the command's default) is asked for. */
export function importRun(em: Emulator, options: Omit<ImportOptions, 'kinds'> & { kinds?: KindName[] }, cwd = ROOT): Promise<Run> {
  const io = captureIo({ env: connection(em), cwd })
  return finish(io, runImport({ kinds: ['target', 'asset', 'agent'], secrets: 'reference', ...options }, io))
}

export function planRun(em: Emulator, dir: string, env: Record<string, string> = {}, format: 'text' | 'json' = 'text'): Promise<Run> {
  const io = captureIo({ env: connection(em, env), cwd: dir })
  return finish(io, runPlan({ mode: 'plan', paths: [dir], format, detailedExitcode: true }, io))
}

export function applyRun(em: Emulator, dir: string, env: Record<string, string> = {}): Promise<Run> {
  const io = captureIo({ env: connection(em, env), cwd: dir })
  return finish(io, runApply({ paths: [dir], format: 'text', autoApprove: true }, io))
}

export function validateRun(dir: string, env: Record<string, string> = {}): Promise<Run> {
  const io = captureIo({ env, cwd: dir })
  return finish(io, runValidate({ paths: [dir] }, io))
}

/** Every file written into a directory, by name. */
export function filesIn(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  )
}

export interface Listed {
  variable: string
  kind: KindName
  id: string
  field: string
}

/** The variables import lists on stderr: `  NAME  target ID field`. */
export function listedVariables(stderr: string): Listed[] {
  return [...stderr.matchAll(/^ {2}([A-Z0-9_]+) +(target|asset|agent) (\S+) (\S+)/gm)].map((m) => ({ variable: m[1], kind: m[2] as KindName, id: m[3], field: m[4] }))
}

/** A field as plans show it (`site.headers[X-Key].value`) in a live resource, in the YAML's shape. */
export function valueAt(resource: JsonObject, kind: KindName, field: string): unknown {
  let current: unknown = KINDS[kind].project(resource)
  for (const [, member, key] of field.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (member !== undefined) current = isObject(current) ? current[member] : undefined
    else current = Array.isArray(current) ? (current.find((item) => isObject(item) && item.name === key) ?? (/^\d+$/.test(key) && typeof current[Number(key)] === 'string' ? current[Number(key)] : undefined)) : undefined
  }
  return current
}

/** The environment a plan needs: each listed variable set to the value the service keeps. */
export function secretEnv(em: Emulator, stderr: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const listed of listedVariables(stderr)) {
    const value = valueAt(em.get(listed.kind, listed.id) as JsonObject, listed.kind, listed.field)
    if (typeof value !== 'string') throw new Error(`no string at ${listed.kind} ${listed.id} ${listed.field}`)
    env[listed.variable] = value
  }
  return env
}

/**
 * `import --all` into a fresh folder, then `validate` and `plan` with the variables it names set
 * to the service's values: its run, every text it printed or wrote, and what the round trip left
 * (`changes`: the plan's changes, or its error; `valid`: validate's exit code).
 */
export async function importRoundTrip(em: Emulator, options: Omit<ImportOptions, 'kinds' | 'all' | 'out'> = {}): Promise<{ run: Run; dir: string; files: string; everything: string; changes: unknown; valid: Run }> {
  const dir = tempDir()
  const run = await importRun(em, { ...options, all: true, out: dir })
  const files = Object.values(filesIn(dir)).join('\n')
  const env = secretEnv(em, run.err)
  const plan = await planRun(em, dir, env, 'json')
  const changes = plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err
  return { run, dir, files, everything: [run.out, run.err, files].join('\n'), changes, valid: await validateRun(dir, env) }
}
