import { mkdir, stat } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { checkWritable, writeFailure, writeWholeFile } from '../../core/whole-file.js'
import type { JsonObject, KindName } from '../../core/types.js'
import { ScansyncError, UsageError } from '../../core/errors.js'
import { EXIT } from '../../core/exit-codes.js'
import { Io, line, withRedaction } from '../../core/io.js'
import { escapeControls, Redaction } from '../../core/redaction.js'
import { printable } from '../../core/printable.js'
import { liveSecrets, QUOTABLE_LENGTH } from '../../secrets/redact.js'
import { startProgress, type Progress } from '../progress.js'
import { selectFields } from '../../import/select.js'
import { isConfigurationWord, Reference, VariableNamer, type SecretNote } from '../../import/secrets.js'
import { renderImport, type ImportSection } from '../../import/yaml.js'
import { readAll, readLive } from '../../live/read.js'
import { readTeamsIfListed } from '../../live/teams.js'
import { namesNeeded, withNames, withoutSharedNames } from '../../import/names.js'
import { NameIndex } from '../../resources/identity.js'
import { KIND_CHOICES, KIND_NAMES, KINDS } from '../../resources/index.js'
import { schemaComment } from './schema-reference.js'
import { guard } from './errors.js'
import { listIdsHint, ReadTally } from './read-tally.js'
import { ConnectionOptions, openSession, type Session } from './session.js'

export interface ImportOptions extends ConnectionOptions {
  kinds: KindName[]
  /** These resources (one kind only); or every resource of the kinds with `all`. */
  ids?: string[]
  all?: boolean
  /** A directory for targets.yaml, assets.yaml, agents.yaml; stdout when absent. */
  out?: string
  /** Overwrite files that exist. */
  force?: boolean
  includeDefaults?: boolean
  /**
   * `omit` (default): secrets are left out, each with a comment naming the variable to add, so
   * the files plan clean with no variable set. `reference`: written as `${VARIABLE}` references.
   */
  secrets?: 'omit' | 'reference'
}

export const fileOfKind = (kind: KindName) => `${KINDS[kind].list}.yaml`

/** `scansync import`: live resources as configuration that plans clean. */
export async function runImport(options: ImportOptions, given: Io): Promise<number> {
  const io = withRedaction(given)
  return guard(io, { debug: options.debug }, async () => {
    const kinds = KIND_NAMES.filter((kind) => options.kinds.includes(kind))
    checkSelection(options, kinds)
    const outDir = options.out === undefined ? undefined : resolve(io.cwd, options.out)
    if (outDir) await checkFiles(outDir, kinds, options.force ?? false, io.cwd, options)

    const session = openSession(options, io)
    let sections: ImportSection[]
    try {
      const namer = new VariableNamer()
      const selectOptions = { includeDefaults: options.includeDefaults, secrets: options.secrets ?? 'omit' } as const
      sections = []
      const lives: JsonObject[][] = []
      // The secrets met that the output step leaves in a text, being too short or too common to
      // replace (a four-letter password a description quotes): plans hide a text quoting one
      // (QUOTABLE_LENGTH), so import must not write it. In any letter case: a list key becomes part
      // of a variable's name, upper-cased, where a secret in another case would be spelt out.
      const quoted = new Redaction()
      for (const kind of kinds) {
        const live = await readKind(kind, options, session, io)
        const resources = live.map((raw) => selectFields(KINDS[kind], raw, namer, selectOptions))
        resources.forEach((resource, r) => {
          // Every secret the resource holds in clear, not only those met in what is written: a part
          // left out (api_scan_settings of a web target, a list the configuration cannot declare)
          // still holds its flagged values, which another text may quote (a description pasting a
          // custom API parameter's token was written in clear).
          const held = [...resource.secretValues, ...liveSecrets(KINDS[kind], KINDS[kind].project(live[r]))]
          io.redaction.add(held.filter((value) => !isConfigurationWord(value)))
          quoted.add(held.filter((value) => value.length >= QUOTABLE_LENGTH).map((value) => value.toLowerCase()))
        })
        sections.push({ kind, resources })
        lives.push(live)
      }
      // A value holding a secret of the run (the token, a secret met in another resource) would be
      // written as the output step's placeholder, which no plan could match, or in clear: such a
      // resource is selected again, that value taken as a secret. A reason quoting a live value
      // counts too (it is printed).
      const holdsRunSecret = (text: string) => io.redaction.redact(text) !== text || quoted.holds(text.toLowerCase())
      sections.forEach((section, s) => {
        section.resources = section.resources.map((resource, r) =>
          writtenTexts(resource.fields).some(holdsRunSecret) || resource.leftOut.some((left) => holdsRunSecret(left.reason))
            ? selectFields(KINDS[section.kind], lives[s][r], namer, { ...selectOptions, holdsRunSecret })
            : resource,
        )
        for (const resource of section.resources) io.redaction.add(resource.secretValues.filter((value) => !isConfigurationWord(value)))
      })
      await referToNames(sections, session, holdsRunSecret)
    } finally {
      await session.client.close()
    }

    if (outDir) {
      for (const section of sections) {
        const path = resolve(outDir, fileOfKind(section.kind))
        try {
          await mkdir(outDir, { recursive: true })
          // Written with the escapes stdout's output step gives them (DEL, C1 controls, line separators,
          // bidirectional marks): the yaml library writes them raw, which YAML forbids in a stream.
          await writeWholeFile(path, escapeControls(io.redaction.file(renderImport([section], schemaComment(outDir)))))
        } catch (error) {
          // A full disk or a read-only folder is no bug: the file named, and why, as the saved plan and the state say it.
          throw new ScansyncError(`cannot write ${shown(io.cwd, path)} (${writeFailure(error)})`)
        }
        line(io.stderr, `Wrote ${shown(io.cwd, path)}: ${count(section.resources.length, section.kind)}.`)
      }
    } else {
      io.stdout.write(renderImport(sections, schemaComment(io.cwd)))
    }
    reportSecrets(sections.flatMap((section) => section.resources.flatMap((resource) => resource.notes)), io)
    reportLeftOut(sections, io)
    return EXIT.ok
  })
}

/** The texts a selection writes (references to variables are not texts). */
function writtenTexts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) writtenTexts(item, out)
  else if (value !== null && typeof value === 'object' && !(value instanceof Reference)) for (const item of Object.values(value)) writtenTexts(item, out)
  return out
}

function checkSelection(options: ImportOptions, kinds: KindName[]): void {
  if (kinds.length === 0) throw new UsageError(`--kind is required: ${KIND_CHOICES}`)
  const ids = options.ids ?? []
  if (options.all && ids.length > 0) throw new UsageError('--all and --id exclude each other: import every resource of the kind, or the ones named')
  if (!options.all && ids.length === 0) throw new UsageError('name the resources with --id ID (repeatable), or import them all with --all')
  if (ids.length > 0 && kinds.length > 1) throw new UsageError(`--id needs a single --kind (ids are per kind; got ${kinds.join(', ')})`)
}

/** Refuses before anything is read, so that a run never ends half-written. */
async function checkFiles(outDir: string, kinds: KindName[], force: boolean, cwd: string, given: Pick<ImportOptions, 'ids' | 'secrets' | 'includeDefaults'>): Promise<void> {
  try {
    if (!(await stat(outDir)).isDirectory()) throw new UsageError(`--out ${shown(cwd, outDir)} is not a directory`)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
    // A folder to create: one that cannot be (a file on its way, a read-only checkout) is said
    // now, before any request, by its cause (a recursive mkdir on a read-only file system says ENOENT).
    await checkWritable(resolve(outDir, fileOfKind(kinds[0] ?? 'target'))).catch((reason: unknown) => {
      throw new ScansyncError(`cannot write to --out ${shown(cwd, outDir)} (${writeFailure(reason)}); nothing was written`)
    })
    return
  }
  // Each file's place too (a link, a folder, a folder this run cannot write to): found only when
  // written, the files before it were written already, after every resource was read.
  for (const kind of kinds) {
    const path = resolve(outDir, fileOfKind(kind))
    await checkWritable(path).catch((reason: unknown) => {
      throw new ScansyncError(`cannot write ${shown(cwd, path)} (${writeFailure(reason)}); nothing was written`)
    })
  }
  if (force) return
  const existing: string[] = []
  for (const kind of kinds) {
    const path = resolve(outDir, fileOfKind(kind))
    try {
      await stat(path)
      existing.push(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  if (existing.length > 0) {
    // --force writes each file whole, with this import's resources alone: adopting a few more
    // resources that way un-declared every one the file held. Resources named by id go beside them
    // in a file of their own (--all would declare again those the files there declare).
    const ids = given.ids ?? []
    const also = `${given.secrets === 'reference' ? ' --secrets reference' : ''}${given.includeDefaults ? ' --include-defaults' : ''}`
    const beside = ids.length > 0 ? `; to add these beside the files there, write them to a new file: scansync import --kind ${kinds.join(',')} --id ${shellWord([...new Set(ids)].sort().join(','))}${also} > ${shellWord(shown(cwd, resolve(outDir, 'NAME.yaml')))}` : ''
    throw new UsageError(
      `${existing.map((path) => shown(cwd, path)).join(', ')} ${existing.length === 1 ? 'exists' : 'exist'}: pass --force to overwrite, or choose another --out (--force replaces the whole file: the resources it declares that this import does not write are then declared nowhere, so no longer managed)${beside}`,
    )
  }
}

/** A path as one word of a shell command line (quoted where it holds more than letters, digits and `/._,-`). */
const shellWord = (text: string) => (/^[\w./,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

async function readKind(kind: KindName, options: ImportOptions, session: Session, io: Io): Promise<JsonObject[]> {
  let progress: Progress | undefined
  const tally = new ReadTally(session.client, session.apiUrl)
  try {
    if (options.all) {
      return await readAll(KINDS[kind], tally.requester, {
        onTotal: async (total) => void (progress = await startProgress(io.stderr, total, `Reading ${KINDS[kind].list}`, { env: io.env })),
        onProgress: (n) => progress?.tick(n),
      })
    }
    const ids = [...new Set(options.ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    progress = await startProgress(io.stderr, ids.length, `Reading ${KINDS[kind].list}`, { env: io.env })
    const found = await readLive(KINDS[kind], ids, tally.requester, { onProgress: (n) => progress?.tick(n) })
    return ids.map((id) => found.get(id)!)
  } catch (error) {
    const explained = await tally.explain(error)
    // An id the service does not have (mistyped, or another kind's): how to list those it has, as plan says.
    if (explained === error && options.all !== true && error instanceof ScansyncError && new RegExp(`^ *${kind} \\S+ not found$`, 'm').test(error.message)) {
      throw new ScansyncError(`${error.message}\n${listIdsHint([kind])}`)
    }
    throw explained
  } finally {
    progress?.stop()
  }
}

/** A path relative to the current directory when it lies below it. */
const shown = (cwd: string, path: string) => {
  const near = relative(cwd, path)
  return near && !near.startsWith('..') ? near : path
}

const count = (n: number, kind: KindName) => `${n} ${n === 1 ? kind : KINDS[kind].list}`

/** Names the variables the files refer to, and the hidden fields left out. Never a value. */
/** The live values no configuration can declare, one line each: they stay unmanaged. */
function reportLeftOut(sections: ImportSection[], io: Io): void {
  const lines = sections.flatMap((section) => section.resources.flatMap((resource) => resource.leftOut.map((item) => `  ${section.kind} ${resource.id} ${printable(item.field)}: ${item.reason}`)))
  if (lines.length === 0) return
  line(io.stderr, 'Left out (they stay as they are on the service; see the comments in the YAML):')
  for (const text of lines) line(io.stderr, text)
}

function reportSecrets(notes: SecretNote[], io: Io): void {
  const written = notes.filter((note) => note.written)
  const leftOut = notes.filter((note) => !note.written)
  if (written.length > 0) {
    line(io.stderr, 'Set these environment variables to the secret values before plan or apply (the YAML refers to them):')
    // reduce, not Math.max(...): spreading a list of some hundred thousand overflows the stack.
    const width = written.reduce((max, note) => Math.max(max, note.variable.length), 0)
    for (const note of written) {
      line(io.stderr, `  ${note.variable.padEnd(width)}  ${note.kind} ${note.id} ${printable(note.field)}${note.hidden ? ' (hidden by the service: "not yet tracked" until the first apply)' : ''}`)
    }
  }
  if (leftOut.length > 0) {
    line(
      io.stderr,
      leftOut.every((note) => note.hidden)
        ? 'Left out because the service hides them (the comment on each resource shows how to add them):'
        : 'Secrets left out, so not managed until you add them (the comment on each resource shows how; --secrets reference writes them as ${VARIABLE} references):',
    )
    for (const note of leftOut) line(io.stderr, `  ${note.kind} ${note.id} ${printable(note.field)}: ${note.variable.split(', ').map((v) => `\${${v}}`).join(', ')}`)
  }
}

/** Teams and agents by name where the name is unique (the lists read only when something refers into them). */
async function referToNames(sections: ImportSection[], session: Session, holdsSecret: (text: string) => boolean): Promise<void> {
  const needed = namesNeeded(sections)
  // A service that does not list teams (the list is not in the interface document): the ids stay,
  // as plan takes them there.
  const [teams, agents] = await Promise.all([needed.teams ? readTeamsIfListed(session.client) : undefined, needed.agents ? readAll(KINDS.agent, session.client) : undefined])
  const names = { team: teams && new NameIndex(teams), agent: agents && new NameIndex(agents), teamsUnlisted: needed.teams && teams === undefined }
  for (const section of sections) {
    section.resources = section.resources.map((resource) => {
      const { fields, leftOut } = withoutSharedNames(section.kind, withNames(section.kind, resource.fields, names, holdsSecret), names)
      return { ...resource, fields, leftOut: [...resource.leftOut, ...leftOut] }
    })
  }
}
