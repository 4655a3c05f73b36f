// Under a limit of virtual memory (`ulimit -v`, as some CI agents and shared hosts set it), V8
// cannot reserve the guarded memory of undici's WebAssembly HTTP parser (8 GB of address space):
// every plan, drift, apply and import said `could not reach the service at …: WebAssembly.Instance():
// Out of memory: Cannot allocate Wasm memory for new instance`, blaming the service for a limit of
// the process, with nothing to change. It now says what is short and what to do.
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { describeNetworkError } from '../../src/client/retry-policy.js'
import { BIN, collectOutput } from '../helpers/cli.js'
import { emulator, envFor, exampleConfig } from '../e2e/helpers.js'

describe('the HTTP parser without the memory it needs', () => {
  it('is said in words naming the limit and the way around it', () => {
    const error = new RangeError('WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance')
    expect(describeNetworkError(error)).toMatch(/virtual memory \(ulimit -v\).*--disable-wasm-trap-handler/)
    expect(describeNetworkError(new ReferenceError('WebAssembly is not defined'))).toMatch(/WebAssembly.*--jitless/)
  })

  it.runIf(process.platform === 'linux')('plan under `ulimit -v 2000000` says so, not a bare V8 message', async () => {
    const em = await emulator()
    const dir = exampleConfig()
    const child = spawn('/bin/sh', ['-c', 'ulimit -v 2000000 && exec "$0" "$@"', process.execPath, BIN, 'plan', '.'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', ...envFor(em) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run = await collectOutput(child)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/ulimit -v.*NODE_OPTIONS=--disable-wasm-trap-handler/)
    expect(run.stderr).not.toMatch(/WebAssembly\.Instance\(\)/)
  }, 30_000)
})
