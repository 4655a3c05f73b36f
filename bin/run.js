#!/usr/bin/env node
// CommonJS (bin/package.json), as the files it loads up to the first request are: Node's loader
// of ES modules, and a module namespace made for each of Node's own modules imported, cost about
// 17 ms of `--version` and 6–12 ms before a plan's first request (docs/performance.md,
// twenty-third round).
'use strict'

/**
 * The Node.js scansync needs (package.json "engines", which npm only warns of at install), checked
 * before anything loads: an older one ran until something it lacks (Node 16: `node:readline/promises`,
 * a stack trace of Node's loader) and named no version. In the syntax of the oldest Node that
 * parses this file (14), as the rest of it is.
 */
const NODE_NEEDED = [20, 18, 1]
{
  const running = process.versions.node.split('.').map(Number)
  const index = NODE_NEEDED.findIndex((part, at) => running[at] !== part)
  if (index !== -1 && !(running[index] > NODE_NEEDED[index])) {
    process.stderr.write(`Error: scansync needs Node.js ${NODE_NEEDED.join('.')} or later; this is Node.js ${process.version} (${process.execPath}).\n`)
    process.exit(1)
  }
}

const { existsSync, fstatSync, readFileSync, writeSync } = require('node:fs')
const { arch, platform, release } = require('node:os')
const { join } = require('node:path')

const argv = process.argv.slice(2)

/**
 * oclif's `config.userAgent` (`scansync/0.1.0 linux-x64 node-v20.20.2`), computed without loading
 * oclif (~100 ms of a 200 ms start-up). Undefined on a Linux that may be WSL: oclif calls that
 * platform `wsl` by rules of its own, so it answers there.
 */
function userAgent() {
  const os = platform()
  if (os === 'linux' && mayBeWsl()) return undefined
  const { name, version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'))
  return `${name}/${version || '0.0.0'} ${os}-${arch() === 'ia32' ? 'x86' : arch()} node-${process.version}`
}

function mayBeWsl() {
  if (release().toLowerCase().includes('microsoft')) return true
  try {
    if (readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft')) return true
  } catch {}
  return existsSync('/proc/sys/fs/binfmt_misc/WSLInterop') || existsSync('/run/WSL')
}

/** A failure to write standard output, said in the words a command's own output says it in (core/io.ts wholeWrites), not as a stack trace: exit 1. */
function outputFailed(error) {
  process.stderr.write(`Error: cannot write to standard output (${error?.code ?? String(error)}): what it holds is incomplete\n`)
  process.exit(1)
}

function watchStreams() {
  // A reader that stopped reading (`scansync --help | head -1`): the rest of the output is dropped
  // quietly, as oclif does once loaded, and the run ends as it would have (no stack trace, no exit 13).
  // Any other failure (a file on a full disk: `scansync completion bash > …`, the help) ends the run there.
  process.stdout.on('error', (error) => {
    if (error?.code !== 'EPIPE') outputFailed(error)
  })
  // stderr, whatever its failure (`apply 2>&1 >report.txt | head -3`, `2>apply.log` on a full disk),
  // has nowhere to say it: the run goes on without it. An apply died at its next line there, after
  // sending its changes, writing neither its report nor the secrets state that records them.
  process.stderr.on('error', () => undefined)
}

/**
 * The version's line, written at once: no stream of stdout made, nor anything else loaded (a few
 * ms of a start of ~90). Whole, as core/io.ts wholeWrites writes a file: a write the system takes
 * in part (a disk nearly full) is finished, or fails and says so. A closed pipe drops it quietly,
 * as the stream would; a descriptor that would block gets the stream, with what is left.
 */
function printVersion(line) {
  const bytes = Buffer.from(`${line}\n`)
  let done = 0
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done)
  } catch (error) {
    if (error?.code === 'EAGAIN') {
      watchStreams()
      process.stdout.write(bytes.subarray(done))
    } else if (error?.code !== 'EPIPE') outputFailed(error)
  }
}

// `scansync --version`, `-v` and `version` alone: the line oclif would print, and nothing else to load.
const versionLine = argv.length === 1 && ['--version', '-v', 'version'].includes(argv[0]) ? userAgent() : undefined
if (versionLine !== undefined) printVersion(versionLine)
else {
  watchStreams()
  require('./v8-flags.js').tuneV8()
  settleRun(runOclif())
}

/**
 * The run's promise, as a top-level `await` of an ES module held it: an error thrown out of it is
 * an uncaught exception (printed by Node, exit 1), and a process that ends with it still pending
 * (its work waiting on something that will never come) exits 13, not 0.
 */
function settleRun(run) {
  let settled = false
  run.then(
    () => (settled = true),
    (error) => {
      settled = true
      process.nextTick(() => {
        throw error
      })
    },
  )
  process.on('exit', (code) => {
    if (!settled && code === 0) process.exitCode = 13
  })
}

/**
 * What an oclif error may not repeat: the value of a flag that does not exist (`--token=…` is
 * refused: the token is read only from SCANSYNC_API_TOKEN, and a value typed there is likely
 * one), and, through the one output step, the token itself and any control character.
 */
function printable(message, redaction) {
  let text = String(message)
  // A flag that does not exist, or a word typed before the command (`scansync --token=… plan`,
  // `scansync SCANSYNC_API_TOKEN=… plan`), taken for the command's name: each word typed as
  // NAME=VALUE is found as typed, its value whole (it may hold spaces, commas, ` not found`; its
  // name any letter, or a dash a document turned into `—`). A flag and its value passed as one
  // word (`"--token $TOKEN"`, a CI step's quoted variable): its name ends at the space. A word
  // after a command that takes none (`scansync schema SCANSYNC_API_TOKEN=…`, `schema -- --token=…`),
  // named again from argv as an unexpected argument (cli/usage-error.ts): its value, the same.
  // Short flags typed together (`-qt=…`, `"-qt $TOKEN"`): oclif takes each known switch off the
  // front and names the rest (`-t=…`), which is found as well.
  if (/Nonexistent flags?:|\b[Cc]ommand .* not found|Unexpected arguments?:/s.test(text)) text = typedValuesRedacted(text)
  return redaction.output(text)
}

/**
 * The text with each word of argv typed as NAME=VALUE (and what oclif names of short flags typed
 * together) replaced, the longest where several start at one place: one pass over the text, each
 * place looked up once per length of word (as core/redaction.ts looks for many weak secrets), so
 * that a message naming thousands of words costs what it says, not that times the words.
 */
function typedValuesRedacted(text) {
  const byLength = new Map()
  const add = (typed, said) => {
    if (!byLength.has(typed.length)) byLength.set(typed.length, new Map())
    byLength.get(typed.length).set(typed, said)
  }
  for (const word of argv) {
    const at = word.startsWith('-') ? word.search(/[=\s]/) : word.indexOf('=')
    if (at <= 0 || at >= word.length - 1) continue
    add(word, `${word.slice(0, at + 1)}(redacted)`)
    if (!word.startsWith('--')) for (let from = 2; from < at; from++) add(`-${word.slice(from)}`, `-${word.slice(from, at + 1)}(redacted)`)
  }
  if (byLength.size === 0) return text
  const lengths = [...byLength.keys()].sort((a, b) => b - a)
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; ) {
    const length = lengths.find((candidate) => byLength.get(candidate).has(text.slice(i, i + candidate)))
    if (length === undefined) {
      i++
      continue
    }
    out += text.slice(last, i) + byLength.get(length).get(text.slice(i, i + length))
    i += length
    last = i
  }
  return out + text.slice(last)
}

/**
 * oclif's entry points as installed. The entry points, not the index: it also loads semver (an
 * engines check), execute, the parser's index… (~27 ms).
 */
async function installedOclif() {
  const [{ run }, { flush }, { handle }] = await Promise.all([import('@oclif/core/run'), import('@oclif/core/flush'), import('@oclif/core/handle')])
  return { run, flush, handle }
}

/**
 * For a command line of plan, drift, apply (whose reads may be on the wire), validate, audit,
 * import, init or schema that asks for no help nor version (reads-from-argv.ts): oclif from its
 * one bundled file, with its code cache (about 100 files as installed, whose resolving, reading
 * and compiling took more of a start than running them). Such a run loads no plugin, the only
 * other code that would load oclif as installed; the commands take Command and the flags from
 * this copy (src/cli/oclif.ts).
 */
async function bundledOclif() {
  // Two turns of the event loop first, so that the reads just started connect and are written
  // before the ~30 ms of loading the file (loaded at once, the first request left 35–55 ms later).
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve))
  const oclif = requireBuilt('cli/oclif.bundle.cjs')
  // The key src/cli/oclif.ts reads (OCLIF_BUNDLED).
  globalThis[Symbol.for('scansync.oclif.bundled')] = oclif
  return oclif
}

/** A CommonJS file of dist/ the build wrote, with its code cache (src/core/code-cache.ts). */
function requireBuilt(file) {
  return require('../dist/core/code-cache.cjs').requireBuilt(require('node:url').pathToFileURL(join(__dirname, '..', 'dist', ...file.split('/'))))
}

/** Whether the descriptor is a file or a device (not a pipe, socket or terminal): Node writes to it at once. */
function writtenAtOnce(fd) {
  try {
    const info = fstatSync(fd)
    return !require('node:tty').isatty(fd) && !info.isFIFO() && !info.isSocket()
  } catch {
    return false
  }
}

async function runOclif() {
  // plan, drift and apply: their list reads leave before oclif loads (src/cli/run/reads-from-argv.ts).
  const { startFromArgv } = await requireBuilt('bundle/app.cjs')['run/reads-from-argv.js']()
  const { bundled, releaseReads } = await startFromArgv(argv)
  const { run, flush, handle } = bundled ? await bundledOclif() : await installedOclif()
  try {
    await run(argv, require('./oclif-options.js').oclifOptions(bundled))
    // oclif's flush waits for a 'drain' that a closed pipe never sends: the run would end unsettled (exit 13).
    // A file or a device has nothing to flush (written at once; a full one, said by the run: core/io.ts
    // wholeWrites): the flush's empty write there failed again, a stack trace after the run's words.
    if (!process.stdout.destroyed && !writtenAtOnce(1)) await Promise.race([flush(), new Promise((resolve) => process.stdout.once('close', resolve))])
  } catch (error) {
    // oclif exits 2 on a mistyped command or flag; in scansync's contract 2 means "changes" or
    // "drift found", so a usage error must not look like one to CI.
    if (error?.oclif?.exit === 2) error.oclif.exit = 1
    const { redactionFor } = await import('../dist/core/redaction.js')
    const redaction = redactionFor(process.env)
    if (error instanceof Error) {
      error.message = printable(error.message, redaction)
      if (error.stack) error.stack = printable(error.stack, redaction)
    }
    // Usage errors in scansync's one style (`Error: …`, a suggestion, no usage dump).
    const { explainUsageError } = await import('../dist/cli/usage-error.js')
    const text = explainUsageError(error, argv)
    if (text === undefined) await handle(error)
    else {
      // Redacted as oclif's message was: an unexpected argument is named from argv, as typed.
      process.stderr.write(printable(text, redaction))
      process.exitCode = 1
    }
  } finally {
    await releaseReads?.()
  }
}
