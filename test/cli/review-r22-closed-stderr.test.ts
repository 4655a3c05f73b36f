// Review round 22 (interruptions: signals, closed streams, a full disk): an apply whose stderr is
// a pipe nobody reads any more (`scansync apply --auto-approve 2>&1 >report.txt | head -3`, a
// log collector that died) died at its first line on stderr after sending its changes: an
// uncaught EPIPE, exit 1, no report, and the secrets state not written, so the next plan showed
// every secret just sent as "not yet tracked" and the next apply sent them again. Only stdout
// had its broken pipe dropped quietly (bin/run.js); stderr now has too, and the run goes on.
//
// The stderr reader is gone before the run starts (a named pipe whose reading end was closed),
// and the first line the apply writes there comes after its writes, deterministically: the
// secrets state's lock is one a killed apply left (stale), which the apply says it takes over.
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, constants, openSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, tempdir, writes } from '../e2e/helpers.js'
import { BIN, collectOutput } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const PASSWORD = 'closed-stderr-Secret-8e1f'
const IDS = ['ClsErr000001', 'ClsErr000002', 'ClsErr000003']

it('an apply with stderr into a closed pipe sends, reports and records its secrets, exit 0', { timeout: 60_000 }, async () => {
  const em = await emulator({ obfuscate: true, seed: { targets: IDS.map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://cls${i}.example.com/` } })) } })
  const dir = tempdir({
    'targets.yaml':
      'targets:\n' +
      IDS.map((id) => `  - id: ${id}\n    site:\n      has_basic_auth: true\n      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}\n`).join(''),
    '.scansync/.keep': '',
  })
  const state = join(dir, '.scansync', 'state.json')
  // A lock an apply killed a minute ago left: taken over at once, with a line on stderr.
  writeFileSync(`${state}.lock`, '4242 an apply that was killed')
  const aMinuteAgo = new Date(Date.now() - 60_000)
  utimesSync(`${state}.lock`, aMinuteAgo, aMinuteAgo)

  const pipe = join(tempdir(), 'stderr')
  expect(spawnSync('mkfifo', [pipe]).status).toBe(0)
  const reader = openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK)
  const writer = openSync(pipe, constants.O_WRONLY)
  closeSync(reader)
  let run
  try {
    const child = spawn(process.execPath, [BIN, 'apply', '--auto-approve', '--format', 'json'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...envFor(em, { PW: PASSWORD }) },
      stdio: ['ignore', 'pipe', writer],
    })
    run = collectOutput(child)
  } finally {
    closeSync(writer)
  }
  const { code, stdout } = await run

  expect(writes(em).map((r) => r.path).sort()).toEqual(IDS.map((id) => `/targets/${id}/`))
  const report = JSON.parse(stdout) as { changes: Array<{ id: string; result: string }> }
  expect(report.changes.map((c) => [c.id, c.result])).toEqual(IDS.map((id) => [id, 'applied']))
  const text = readFileSync(state, 'utf8')
  expect(Object.keys((JSON.parse(text) as { resources: object }).resources).sort()).toEqual(IDS.map((id) => `target/${id}`))
  expect(text + stdout).not.toContain(PASSWORD)
  expect(code).toBe(0)
})
