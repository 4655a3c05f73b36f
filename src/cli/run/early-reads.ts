import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { findConfigFiles } from '../../config/find-files.js'
import { MAX_FILE_BYTES } from '../../config/limits.js'
import { readConfigFile } from '../../config/read-file.js'
import type { KindName } from '../../core/types.js'
import { processIo, type RedactedIo } from '../../core/io.js'
import { ListPrefetch } from '../../live/prefetch.js'
import { KIND_NAMES, KINDS } from '../../resources/index.js'
import { configLists } from '../../schema/config-lists.js'
import { openSession, type ConnectionOptions, type Session } from './session.js'

/**
 * Below this much YAML, loading takes a few milliseconds and reading ahead would gain nothing
 * (and cost a list page for a kind that turns out to be read by id).
 */
const READ_AHEAD_FROM_BYTES = 64 * 1024

export interface EarlyReads {
  session: Session
  prefetch: ListPrefetch
}

export type EarlyReadOptions = ConnectionOptions & { paths: string[]; kinds?: KindName[]; ids?: string[] }

/**
 * Reads started by a command before it loads its use case (most of its modules), handed to the
 * plan that takes them. The Io is the one the run must use: the session's redaction is its.
 */
export class ReadsAhead {
  private taken = false

  constructor(
    readonly io: RedactedIo,
    private readonly started: Promise<EarlyReads | undefined>,
  ) {
    // Whoever takes them sees a failure; untaken, it must not end the process.
    started.catch(() => undefined)
  }

  /** Once the first requests are on their way (or nothing was started): the moment to load the rest. */
  async sent(): Promise<void> {
    await this.started.catch(() => undefined)
  }

  /** For the plan, once: it then owns (and closes) the session. */
  take(): Promise<EarlyReads | undefined> {
    this.taken = true
    return this.started
  }

  /** After the run: reads nobody took (it stopped before planning) are let go, and their connections closed. */
  async release(): Promise<void> {
    if (this.taken) return
    this.taken = true
    const early = await this.started.catch(() => undefined)
    early?.prefetch.stop()
    await early?.session.client.close()
  }
}

/** Reads started by bin/run.js from its reading of the command line, for the command to claim. */
let pending: { options: EarlyReadOptions; reads: ReadsAhead } | undefined

/** bin/run.js: start the reads before oclif loads; `options` is its guess at what oclif will parse. */
export async function startReadsAhead(options: EarlyReadOptions): Promise<void> {
  const io = processIo() as RedactedIo
  pending = { options, reads: new ReadsAhead(io, startEarlyReads(options, io)) }
  await pending.reads.sent()
}

/** bin/run.js, once oclif is done: reads no command claimed (oclif refused the command line) are let go. */
export async function releaseReadsAhead(): Promise<void> {
  const unclaimed = pending
  pending = undefined
  await unclaimed?.reads.release()
}

/**
 * The command's reads: those bin/run.js started when its guess matches what oclif parsed, else
 * new ones (a wrong guess only read lists of kinds its files declare; they are let go).
 */
export function readsAhead(options: EarlyReadOptions): ReadsAhead {
  const claimed = pending
  pending = undefined
  if (claimed && sameReads(claimed.options, options)) return claimed.reads
  void claimed?.reads.release()
  const io = processIo() as RedactedIo
  return new ReadsAhead(io, startEarlyReads(options, io))
}

function sameReads(a: EarlyReadOptions, b: EarlyReadOptions): boolean {
  const key = (o: EarlyReadOptions) =>
    JSON.stringify([o.paths, o.kinds ?? [], o.ids ?? [], o.apiUrl ?? null, o.parallelism ?? null, Boolean(o.insecureHttp), Boolean(o.debug), o.timeoutMs ?? null])
  return key(a) === key(b)
}

/**
 * Starts reading the lists of the kinds the configuration files declare (a top-level
 * `targets:`, `assets:` or `agents:`), before the files are parsed and checked: the round trips
 * then overlap the loading. Reads only; undefined (nothing started) when the run could not read
 * anyway (no URL or token, ids named) or the configuration is small. The caller closes the
 * session when the configuration turns out invalid.
 */
export async function startEarlyReads(options: EarlyReadOptions, io: RedactedIo): Promise<EarlyReads | undefined> {
  if (options.ids && options.ids.length > 0) return undefined
  if (!io.env.SCANSYNC_API_TOKEN || !(options.apiUrl ?? io.env.SCANSYNC_API_URL)) return undefined
  const kinds = (await declaredKinds(options.paths, io.cwd)).filter((kind) => !options.kinds?.length || options.kinds.includes(kind))
  if (kinds.length === 0) return undefined
  let session: Session
  try {
    session = openSession(options, io)
  } catch {
    // The same problem is reported where it always is, after the configuration is checked.
    return undefined
  }
  return { session, prefetch: new ListPrefetch(kinds.map((kind) => KINDS[kind]), session.client) }
}

/** The kinds whose lists the files hold at their top level; none when the files are small. */
async function declaredKinds(paths: string[], cwd: string): Promise<KindName[]> {
  const { files } = await findConfigFiles(paths, cwd)
  const sizes = files.map((file) => {
    try {
      const info = statSync(resolve(cwd, file))
      return info.isFile() ? info.size : -1
    } catch {
      return -1
    }
  })
  const total = sizes.reduce((sum, size) => sum + Math.max(0, size), 0)
  if (total < READ_AHEAD_FROM_BYTES) return []
  const found = new Set<KindName>()
  // A key at the start of the text or of a line, lines broken at LF (so CRLF) only: YAML breaks
  // no line at U+2028 or U+2029, which `^` with the m flag would also start a line after (nor at
  // a lone CR, which YAML would: a file written so is only not read ahead).
  const lists = configLists().map(({ list, kind }) => ({ kind, key: new RegExp(`(?:^|\\n)${list}[ \\t]*:`) }))
  for (const [i, file] of files.entries()) {
    // Only regular files within the size limit: a pipe or a device is never opened here.
    if (sizes[i] < 0 || sizes[i] > MAX_FILE_BYTES) continue
    const text = readText(resolve(cwd, file))
    for (const { kind, key } of lists) if (!found.has(kind) && key.test(text)) found.add(kind)
    if (found.size === lists.length) break
  }
  return KIND_NAMES.filter((kind) => found.has(kind))
}

/** The file's text, as the loader reads it; '' when it cannot be read (the loader reports why). */
function readText(path: string): string {
  try {
    const read = readConfigFile(path)
    return 'bytes' in read ? read.bytes.toString('utf8') : ''
  } catch {
    return ''
  }
}
