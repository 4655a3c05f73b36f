// Issue 8, size: a large configuration, and a single 50 MB file, either work within 500 MB of
// memory or fail with a clear error, never a crash. Here (every `npm test`) a configuration of
// 10,000 resources; size.slow.test.ts (`npm run test:slow`) runs 100,000. The runs and their
// measures are in size.ts.
import { spawnSync } from 'node:child_process'
import { closeSync, openSync, symlinkSync, writeSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { UnexpectedResponseError } from '../../src/client/index.js'
import { MAX_FILE_BYTES } from '../../src/config/load.js'
import { NOT_REGULAR, readConfigFile } from '../../src/config/read-file.js'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { cleanup, json, rejection, setup } from '../client/server.js'
import { BUDGET_MB, describeConfigurationOf, figures, noCrash, scansync, target, writeTargets } from './size.js'

beforeAll(ensureBuilt, 120_000)

describeConfigurationOf(10_000)

describe('a single 50 MB file', () => {
  it(`is refused before it is read, naming the limit (${MAX_FILE_BYTES / 1024 / 1024} MB a file); it crashed the loader (a spread of 300,000 resources overflowed the stack)`, { timeout: 60_000 }, async () => {
    const root = tempdir()
    let count = 0
    const path = join(root, 'big.yaml')
    const fd = openSync(path, 'w')
    writeSync(fd, 'targets:\n')
    for (let written = 0; written < 50 * 1024 * 1024; count += 1000) {
      let chunk = ''
      for (let i = count; i < count + 1000; i++) chunk += target(i)
      writeSync(fd, chunk)
      written += Buffer.byteLength(chunk)
    }
    closeSync(fd)
    const run = await scansync(['validate', 'big.yaml'], { cwd: root })
    noCrash(run)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^big\.yaml:1:1: the file is 5\d\.\d MB, more than the limit of 20\.0 MB for one file: split it into several files \(a configuration may hold any number\)\n1 error; nothing was sent\.\n$/)
    figures.push(`validate one 50 MB file (${count.toLocaleString('en')} resources): refused, peak RSS ${run.rssMb} MB, ${run.ms} ms`)
    expect(run.rssMb).toBeLessThan(BUDGET_MB)
  })

  it('more configuration than the process can hold is refused up front, not a crash (a heap made small to show it)', { timeout: 60_000 }, async () => {
    const root = tempdir()
    writeTargets(join(root, 'a.yaml'), 0, 30_000)
    const run = await scansync(['validate', '.'], { cwd: root, nodeOptions: ['--max-old-space-size=64'] })
    noCrash(run)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^a\.yaml:1:1: the configuration is \d+\.\d MB in 1 file, more than this process can hold \(\d\.\d MB\); plan it in parts \(paths, or --kind and --id\)\n/)
  })
})

describe('what is not a regular file', () => {
  it.runIf(process.platform === 'linux')('a link to /dev/zero or a named pipe is refused, not read forever (it was read until memory ran out)', { timeout: 30_000 }, async () => {
    const root = tempdir({ 'ok.yaml': 'agents: []\n' })
    symlinkSync('/dev/zero', join(root, 'zero.yaml'))
    expect(spawnSync('mkfifo', [join(root, 'pipe.yaml')]).status).toBe(0)
    const run = await scansync(['validate', '.', 'pipe.yaml'], { cwd: root })
    noCrash(run)
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      [
        'pipe.yaml:1:1: not a regular file (a device, a pipe or a socket); a configuration file must be one',
        'zero.yaml:1:1: not a regular file (a device, a pipe or a socket); a configuration file must be one',
        '2 errors; nothing was sent.',
        '',
      ].join('\n'),
    )
  })
})

describe('the one reader of a configuration file (src/config/read-file.ts)', () => {
  it.runIf(process.platform === 'linux')('refuses a named pipe at once, without waiting for a writer (one put where a file was checked to be)', () => {
    const root = tempdir()
    const pipe = join(root, 'pipe.yaml')
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0)
    // In a process of its own: a blocking open of the pipe would hang the thread that makes it.
    const reader = new URL('../../dist/config/read-file.js', import.meta.url).href
    const script = `const { readConfigFile } = await import(${JSON.stringify(reader)}); console.log(JSON.stringify(readConfigFile(${JSON.stringify(pipe)})))`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 })
    expect(run.signal).toBeNull()
    expect(JSON.parse(run.stdout)).toEqual({ problem: NOT_REGULAR })
    // A file that cannot be opened throws, for the loader to locate (cannot read the file: ENOENT).
    expect(() => readConfigFile(join(root, 'missing.yaml'))).toThrow(expect.objectContaining({ code: 'ENOENT' }))
  })
})

describe('an answer that never ends', () => {
  afterEach(cleanup)

  it('is cut off at 64 MB with a clear error, not read into memory until the process dies (it reached 16 GB)', { timeout: 60_000 }, async () => {
    // A 200 whose JSON body streams forever (as fast as it is read).
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id": "G1", "name": "')
      const chunk = Buffer.alloc(1 << 16, 0x61)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
      }
      res.on('drain', pump)
      req.socket.on('close', () => res.destroy())
      pump()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const root = tempdir({ 'a.yaml': 'agents:\n  - id: G1\n    name: x\n' })
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const run = await scansync(['plan'], { cwd: root, env: { SCANSYNC_API_URL: url, SCANSYNC_API_TOKEN: 'size-token', SCANSYNC_MAX_ATTEMPTS: '3' } })
      noCrash(run)
      expect(run.code).toBe(1)
      expect(run.stderr).toBe("Error: agent G1: the service's answer is larger than 64 MB, the most scansync reads; it was not read\n")
      figures.push(`plan against an answer that never ends: refused after 64 MB, peak RSS ${run.rssMb} MB, ${run.ms} ms`)
      expect(run.rssMb).toBeLessThan(BUDGET_MB)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it.each([true, false])('a limit the client is given is kept, whether the length is announced or not (announced: %s)', async (announced) => {
    const { server, client } = await setup((_req, res) => {
      const body = JSON.stringify({ id: 'a', pad: 'x'.repeat(4096) })
      if (announced) json(res, 200, JSON.parse(body))
      else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(body)
      }
    }, { maxResponseBytes: 1024 })
    const error = await rejection(client.request('GET', '/targets/a/', { resource: 'target a' }))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toBe("target a: the service's answer is larger than 1 KB, the most scansync reads; it was not read")
    expect(server.received).toHaveLength(1)
  })
})
