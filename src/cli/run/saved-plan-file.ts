import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { writeFailure, writeWholeFile } from '../../core/whole-file.js'
import { ScansyncError } from '../../core/errors.js'
import type { Io, RedactedIo } from '../../core/io.js'
import type { SavedPlan } from '../../schema/generated.js'
import type { PlanResult } from '../../plan/build-plan.js'
import { encodeSavedPlan } from '../../plan/saved-plan.js'
import { planDocument } from '../../render/index.js'
import { stateKeys } from '../../secrets/state.js'
import { appVersion } from './version.js'
import { namesShown, nameShown, referenceNames } from '../../plan/names.js'
import type { PolicyRule } from '../../config/policies.js'
import type { DesiredResource } from '../../core/types.js'
import type { NameReference } from '../../resources/identity.js'

/** The saved plan of a prepared plan, keyed with the state key (or the token), written so that the file redaction leaves it whole. */
export function savedPlanDocument(prepared: { result: PlanResult; session: { apiUrl: string; token: string }; identified?: { names: Parameters<typeof referenceNames>[0]; references?: ReadonlyMap<DesiredResource, readonly NameReference[]> }; policies?: readonly PolicyRule[] }, paths: string[], io: RedactedIo, out = '.', state?: string): SavedPlan {
  const { result, session } = prepared
  // Relative to the plan file's directory (see configurationPaths), wherever the plan is made from.
  const planDirectory = planDirectoryOf(out, io.cwd)
  return encodeSavedPlan(
    {
      changed: result.changed,
      plan: planDocument(result.plan),
      apiUrl: session.apiUrl,
      // No path argument is the current directory, as the configuration is read (find-files.ts).
      // As real paths too: one spelt through a link would be saved as a way out and back in through it.
      paths: (paths.length > 0 ? paths : ['.']).map((p) => relative(planDirectory, realPathOf(resolve(io.cwd, p))) || '.'),
      // The plan's file names are relative to it: apply --plan run elsewhere annotates them from there.
      workingDirectory: relative(planDirectory, realPathOf(io.cwd)) || '.',
      // The state given by --state: apply --plan records the secrets it sends where this plan read them.
      ...(state !== undefined ? { state: relative(planDirectory, realPathOf(resolve(io.cwd, state))) } : {}),
      version: appVersion(),
      redact: io.redaction.file,
      holds: io.redaction.holds,
      env: io.env,
      // A name holding a secret of the run (a variable's value, a weak one too) is kept as (sensitive).
      policies: prepared.policies,
      names: prepared.identified ? namesShown(result.plan, referenceNames(prepared.identified.names), nameShown(io.redaction)) : undefined,
      // The names its ids came from: apply --plan resolves them again.
      ...(prepared.identified?.references ? { references: prepared.identified.references } : {}),
    },
    stateKeys(io.env, session.token).key,
  )
}

/** Through the output step all the same: the document was made to pass it unchanged (savedPlanDocument); a secret that got in anyway is replaced, and the checksum then refuses the file. */
export async function writeSavedPlan(file: string, saved: SavedPlan, io: RedactedIo): Promise<void> {
  try {
    await writeWholeFile(resolve(io.cwd, file), io.redaction.file(JSON.stringify(saved, null, 2) + '\n'), 0o600)
  } catch (error) {
    throw new ScansyncError(`cannot write the saved plan ${file} (${writeFailure(error)}): no plan was saved`)
  }
}

/**
 * The configuration paths of a saved plan, as apply --plan uses them (to find the secrets state
 * the plan read): saved relative to the plan file's directory, and resolved against it, so that a
 * plan applied from another directory (`apply --plan ../repo/release.plan.json`) writes the state
 * where a plan made in the repository reads it.
 */
export function configurationPaths(saved: readonly string[], planFile: string, io: Io): string[] {
  const planDirectory = planDirectoryOf(planFile, io.cwd)
  return saved.map((p) => (isAbsolute(p) ? p : resolve(planDirectory, p)))
}

/**
 * The directory the paths a saved plan holds are relative to: the plan file's, as its real path.
 * A plan saved through a symbolic link (`--out $GITHUB_WORKSPACE/plan.json`, the workspace a link
 * to another disk) and applied by its real path (or the other way round) then finds the same
 * configuration, where `..` counted from the link's spelling would lead elsewhere.
 */
export function planDirectoryOf(planFile: string, cwd: string): string {
  return realPathOf(dirname(resolve(cwd, planFile)))
}

/**
 * An absolute path as its real path: a folder's own; a file's folder's, the file's name as spelt
 * (the secrets state is found from the folder it is named in, statePathFor). As spelt when it cannot be read.
 */
function realPathOf(path: string): string {
  try {
    return statSync(path).isDirectory() ? realpathSync.native(path) : join(realpathSync.native(dirname(path)), basename(path))
  } catch {
    return path
  }
}

const NOT_REGULAR = 'ENOTREGULAR'

/**
 * A saved plan's text. Only a regular file is read, as the secrets state and the configuration's
 * files are: a FIFO nobody writes to blocked the apply for ever (a thread of libuv's pool waiting
 * in open(), so that not even SIGTERM ended the process), and a link to /dev/zero was read until
 * memory ran out. O_NONBLOCK: such a FIFO opens without waiting, and is then refused.
 */
function savedPlanText(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const info = fstatSync(fd)
    if (info.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' })
    if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: NOT_REGULAR })
    return readFileSync(fd, 'utf8')
  } finally {
    closeSync(fd)
  }
}

/** The saved plan file's JSON, unchecked (decodeSavedPlan checks it). */
export async function readSavedPlan(file: string, io: Io): Promise<unknown> {
  let text: string
  try {
    text = savedPlanText(resolve(io.cwd, file))
  } catch (error) {
    // Not read at all (a directory, no permission) is not a file cut short or edited: said as the system says it.
    const code = (error as NodeJS.ErrnoException).code
    throw new ScansyncError(`cannot read the saved plan ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === NOT_REGULAR ? 'not a regular file (a device, a pipe or a socket); name the file scansync plan --out wrote' : (code ?? String(error))}`)
  }
  // A byte order mark, as Windows tools write one when the plan passes through them (the secrets state's reader skips it too).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  try {
    return JSON.parse(text)
  } catch {
    throw new ScansyncError(`cannot read the saved plan ${file}: not JSON`)
  }
}
