// Review round 22 (interruptions: signals, closed streams, a full disk): Ctrl-C pressed at apply's
// question on a terminal ("Apply 4 changes? Only "yes" is accepted:") said "Error: unexpected
// failure: Aborted with Ctrl+C. Run again with --debug for details, and please report it." and
// exited 1: on a terminal the question's reader takes the key itself, and no signal came. It now
// ends as Ctrl-C does at any other moment before a write: "Interrupted before anything was sent:
// nothing was sent.", exit 130. Ctrl-D (the input ended) asked for a bug report the same way; it
// is no "yes": "Apply cancelled; nothing was sent.", exit 1. Review round 24 (the contract,
// statement by statement): that message was written on the question's own line (the terminal
// echoes no line break for Ctrl-D), `… Only "yes" is accepted: Apply cancelled; nothing was sent.`,
// as if it were the answer typed; it now starts a line of its own, as after Ctrl-C.
//
// A real terminal: the CLI runs under script(1), which gives it a pseudo-terminal; the key is
// typed once the question is on the screen.
import { spawn, spawnSync } from 'node:child_process'
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { emulator, envFor, exampleConfig, writes } from '../e2e/helpers.js'
import { BIN } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

beforeAll(() => {
  expect(spawnSync('script', ['--version']).status, 'script(1) from util-linux runs the CLI on a terminal').toBe(0)
})

/** `scansync apply` on a pseudo-terminal; `key` typed once the question shows. Its screen and exit code. */
function applyOnTerminal(cwd: string, env: Record<string, string | undefined>, key: string): Promise<{ screen: string; code: number | null }> {
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} apply`
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TERM: 'dumb', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let screen = ''
  let typed = false
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk
    if (!typed && screen.includes('Only "yes" is accepted')) {
      typed = true
      child.stdin.write(key)
    }
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ screen, code }))
  })
}

it('Ctrl-C at the question: interrupted, nothing sent, exit 130', { timeout: 60_000 }, async () => {
  const em = await emulator()
  const { screen, code } = await applyOnTerminal(exampleConfig(), envFor(em), '\x03')
  expect(screen).not.toContain('unexpected failure')
  expect(screen).toContain('Interrupted before anything was sent: nothing was sent.')
  expect(code).toBe(130)
  expect(writes(em)).toEqual([])
})

it('Ctrl-D at the question: no "yes", cancelled on a line of its own, nothing sent, exit 1', { timeout: 60_000 }, async () => {
  const em = await emulator()
  const { screen, code } = await applyOnTerminal(exampleConfig(), envFor(em), '\x04')
  expect(screen).not.toContain('unexpected failure')
  const lines = screen.split('\n')
  const cancelled = lines.find((text) => text.includes('Apply cancelled; nothing was sent.'))
  expect(cancelled, screen).toBeDefined()
  expect(cancelled).not.toContain('is accepted')
  expect(lines.some((text) => text.includes('Only "yes" is accepted'))).toBe(true)
  expect(code).toBe(1)
  expect(writes(em)).toEqual([])
})

it('"yes" at the question still applies', { timeout: 60_000 }, async () => {
  const em = await emulator()
  const { screen, code } = await applyOnTerminal(exampleConfig(), envFor(em), 'yes\r')
  expect(screen).toContain('applied')
  expect(code).toBe(0)
  expect(writes(em).length).toBeGreaterThan(0)
})
