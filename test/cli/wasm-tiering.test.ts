// undici's HTTP parser (llhttp) is WebAssembly. Left to its defaults, V8 compiles its main
// function again with TurboFan within the first answers: ~190 ms of CPU on a helper thread, which
// a finished process then waits for. bin/run.js raises the tiering budget so that a run of the
// usual size keeps the baseline code (see the comment there).
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, collectOutput, type CliResult } from '../helpers/cli.js'
import { emulator, envFor, exampleConfig, ROOT, TOKEN } from '../e2e/helpers.js'

/** `node --trace-wasm-compilation-times ARGS`: V8 then prints a line for each Wasm function it compiles, and with which compiler. */
function traced(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const child = spawn(process.execPath, ['--trace-wasm-compilation-times', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  return collectOutput(child)
}

describe('the WebAssembly HTTP parser', () => {
  it('is compiled again by TurboFan, and the trace shows it, when the budget is small (the control)', async () => {
    const em = await emulator()
    // The same requests as a plan of the example configuration, through undici's Pool without scansync.
    const script = `
      const { Pool } = await import('undici')
      const pool = new Pool(${JSON.stringify(em.url)}, { connections: 2 })
      for (const path of ['/targets/', '/discovery/assets/', '/scanning-agents/']) {
        const response = await pool.request({ method: 'GET', path: path + '?page=1&length=100', headers: { authorization: 'JWT ${TOKEN}' } })
        await response.body.text()
      }
      await pool.close()`
    // Node 20's default budget (1,800,000) tiers up within these three answers; newer V8s default higher.
    const run = await traced(['--wasm-tiering-budget=1800000', '--input-type=module', '-e', script], {})
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/using Liftoff/)
    expect(run.stdout).toMatch(/using TurboFan/)
  })

  it('keeps its baseline code in a plan run through bin/run.js', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const run = await traced([BIN, 'plan', dir, '--format', 'json', '--state', join(dir, 'state.json')], envFor(em))
    expect([0, 2], run.stderr).toContain(run.code)
    expect(run.stdout).toMatch(/using Liftoff/)
    expect(run.stdout).not.toMatch(/using TurboFan/)
  })
})
