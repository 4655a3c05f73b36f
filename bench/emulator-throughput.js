#!/usr/bin/env node
// GET throughput of the emulator with no latency injected: `npm run bench:emulator`.
// Runs the built CLI (`npm run build` first) in its own process, seeded with many targets, and
// drives GET /targets/:id/ over keep-alive connections. Options: --seconds N, --connections N, --targets N.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Pool } from 'undici'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    targets: { type: 'string', default: '1000' },
  },
})
const seconds = Number(values.seconds)
const connections = Number(values.connections)
const targetCount = Number(values.targets)
const TOKEN = 'bench-token'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dir = mkdtempSync(join(tmpdir(), 'scansync-bench-'))
const ids = Array.from({ length: targetCount }, (_, i) => `Bench${String(i).padStart(7, '0')}`)
const seedFile = join(dir, 'seed.json')
writeFileSync(
  seedFile,
  JSON.stringify({
    agents: [{ id: 'BenchAgent01', name: 'bench-agent' }],
    targets: ids.map((id, i) => ({
      id,
      site: { name: `Target ${i}`, url: `https://t${i}.example.com/`, headers: [{ name: 'X-Bench', value: String(i) }] },
      labels: [{ name: 'bench', color: '#0e8a16' }, { name: `group-${i % 10}` }],
      scan_profile: 'normal',
      scanning_agent: { id: 'BenchAgent01' },
      blackout_period: { begin: '22:00', cease: '06:00', weekdays: [1, 2, 3, 4, 5] },
    })),
  }),
)

const child = spawn(process.execPath, [join(root, 'bin/run.js'), 'emulator', '--seed', seedFile, '--token', TOKEN, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'pipe'],
})
let stderr = ''
child.stderr.on('data', (chunk) => (stderr += chunk))
const url = await new Promise((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the emulator exited (${code}); run npm run build first\n${stderr}`)))
  createInterface({ input: child.stdout }).once('line', (line) => resolve(line.replace(/^listening on /, '')))
})

const pool = new Pool(url, { connections, pipelining: 1 })
const headers = { authorization: `JWT ${TOKEN}`, accept: 'application/json' }
let done = 0
let failed = 0
let bytes = 0

async function worker(offset, until) {
  for (let i = offset; Date.now() < until; i += connections) {
    const { statusCode, body } = await pool.request({ method: 'GET', path: `/targets/${ids[i % ids.length]}/`, headers })
    const text = await body.text()
    bytes += text.length
    if (statusCode === 200) done++
    else failed++
  }
}

// A short warm-up, then the measured run.
await Promise.all(Array.from({ length: connections }, (_, i) => worker(i, Date.now() + 500)))
done = failed = bytes = 0
const started = performance.now()
await Promise.all(Array.from({ length: connections }, (_, i) => worker(i, Date.now() + seconds * 1000)))
const elapsed = (performance.now() - started) / 1000

await pool.close()
child.kill('SIGTERM')
await new Promise((resolve) => child.once('exit', resolve))
rmSync(dir, { recursive: true, force: true })

const perSecond = Math.round(done / elapsed)
console.log(
  `emulator GET throughput: ${perSecond.toLocaleString('en-US')} GET/s ` +
    `(${done.toLocaleString('en-US')} requests in ${elapsed.toFixed(1)} s, ${connections} keep-alive connections, ` +
    `${targetCount.toLocaleString('en-US')} targets, ${Math.round(bytes / Math.max(done, 1))} bytes per response, ${failed} failed)`,
)
if (failed > 0) process.exitCode = 1
