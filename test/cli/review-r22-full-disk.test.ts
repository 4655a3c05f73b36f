// Review round 22 (interruptions: signals, closed streams, a full disk): output redirected to a
// file on a disk that fills.
// - `scansync plan --format json > plan.json` with less room left than the plan: Node's stream for
//   a file writes once and drops what the system did not take, so the plan was cut short and the
//   run exited 0 (the next step's `jq` failed on it); with no room at all, a Node stack trace. The
//   run's output is now written whole, or the run says so and exits 1.
// - `scansync apply … 2>apply.log` on a full disk: the first line on stderr ended the run (an
//   uncaught error: exit 1, nothing said), after its changes were sent, before the secrets state
//   recorded them. stderr's failures are now dropped, as a closed pipe's were on stdout.
// /dev/full stands for the full disk (every write fails with ENOSPC); a short write, which needs
// a nearly full disk, is given by a write function that takes a few bytes at a time.
import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { wholeWrites, type OutputStream } from '../../src/core/io.js'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, tempdir, writes } from '../e2e/helpers.js'
import { BIN, collectOutput, type CliResult } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const PASSWORD = 'full-disk-Secret-2b9d'
const IDS = ['FullDk000001', 'FullDk000002', 'FullDk000003']
const seed = () => ({ targets: IDS.map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://fd${i}.example.com/` } })) })
const CONFIG =
  'targets:\n' + IDS.map((id) => `  - id: ${id}\n    site:\n      has_basic_auth: true\n      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}\n`).join('')

/** The CLI with stdout or stderr written to /dev/full (the other one a pipe). */
function runInto(full: 'stdout' | 'stderr', args: string[], cwd: string, env: Record<string, string | undefined>): Promise<CliResult> {
  const device = openSync('/dev/full', 'w')
  try {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: ['ignore', full === 'stdout' ? device : 'pipe', full === 'stderr' ? device : 'pipe'],
    })
    return collectOutput(child)
  } finally {
    closeSync(device)
  }
}

describe('output to a full disk', () => {
  it.each([['plan', '--format', 'json'], ['plan'], ['drift', '--format', 'markdown']].map((args) => [args.join(' '), args] as const))('scansync %s > full disk: says so in one line, exit 1, no stack trace', { timeout: 60_000 }, async (_, args) => {
    const em = await emulator({ seed: seed() })
    const dir = tempdir({ 'targets.yaml': CONFIG })
    const { code, stderr } = await runInto('stdout', [...args], dir, envFor(em, { PW: PASSWORD }))
    expect(stderr).toBe('Error: cannot write to standard output (ENOSPC): what it holds is incomplete\n')
    expect(code).toBe(1)
  })

  it('apply 2> full disk: sends, records its secrets and reports, exit 0', { timeout: 60_000 }, async () => {
    const em = await emulator({ obfuscate: true, seed: seed() })
    const dir = tempdir({ 'targets.yaml': CONFIG, '.scansync/.keep': '' })
    const state = join(dir, '.scansync', 'state.json')
    // A lock a killed apply left a minute ago: taken over at once, saying so on stderr after the writes.
    writeFileSync(`${state}.lock`, '4242 an apply that was killed')
    const aMinuteAgo = new Date(Date.now() - 60_000)
    utimesSync(`${state}.lock`, aMinuteAgo, aMinuteAgo)

    const { code, stdout } = await runInto('stderr', ['apply', '--auto-approve', '--format', 'json'], dir, envFor(em, { PW: PASSWORD }))

    expect(writes(em).map((r) => r.path).sort()).toEqual(IDS.map((id) => `/targets/${id}/`))
    expect((JSON.parse(stdout) as { changes: Array<{ result: string }> }).changes.map((c) => c.result)).toEqual(['applied', 'applied', 'applied'])
    expect(Object.keys((JSON.parse(readFileSync(state, 'utf8')) as { resources: object }).resources).sort()).toEqual(IDS.map((id) => `target/${id}`))
    expect(code).toBe(0)
  })
})

describe('stdout as a file is written whole', () => {
  it('a write the system takes a few bytes at a time is finished, not cut short', () => {
    const file = join(tempdir(), 'plan.json')
    const fd = openSync(file, 'w')
    try {
      const written: number[] = []
      const stream = wholeWrites<OutputStream>({ write: () => true }, fd, 'standard output', (_, data) => {
        const n = Math.min(7, data.length)
        written.push(n)
        writeFileSync(fd, data.subarray(0, n))
        return n
      })
      const text = JSON.stringify({ changes: Array.from({ length: 50 }, (_, i) => ({ id: `T${i}`, name: 'é ✓' })) })
      stream.write(text)
      expect(written.length).toBeGreaterThan(1)
      expect(readFileSync(file, 'utf8')).toBe(text)
    } finally {
      closeSync(fd)
    }
  })
})
