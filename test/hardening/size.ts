// Issue 8, size: what the size tests share. The real CLI runs in a child process (the test
// runner's memory is not at stake) that reports its own peak RSS (process.resourceUsage().maxRSS)
// and wall time on exit; the files are written in a temporary directory, a thousand resources at
// a time. size.test.ts (every `npm test`) runs a configuration of 10,000 resources and the limits;
// size.slow.test.ts (`npm run test:slow`) runs 100,000.
import { spawn } from 'node:child_process'
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { BIN, collectOutput } from '../helpers/cli.js'

export const BUDGET_MB = 500

/** Prints `maxRSS=<MB> ms=<wall>` on stderr as the child exits. */
const REPORT =
  'data:text/javascript,import {writeSync} from "node:fs";const t=Date.now();process.on("exit",()=>writeSync(2,"\\nmaxRSS="+Math.round(process.resourceUsage().maxRSS/1024)+" ms="+(Date.now()-t)+"\\n"))'

export interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  rssMb: number
  ms: number
}

export async function scansync(args: string[], options: { cwd: string; env?: Record<string, string>; nodeOptions?: string[] }): Promise<Run> {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), '--import', REPORT, BIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const { stderr, ...rest } = await collectOutput(child)
  const report = /maxRSS=(\d+) ms=(\d+)/.exec(stderr)
  return { ...rest, stderr: stderr.replace(/\nmaxRSS=.*\n$/, ''), rssMb: Number(report?.[1] ?? NaN), ms: Number(report?.[2] ?? NaN) }
}

export const id = (i: number) => `Sz${String(i).padStart(10, '0')}`
/** A target as people write them: about 170 bytes. */
export const target = (i: number) =>
  `  - id: ${id(i)}\n    site: {name: Site ${i}, url: "https://s${i}.example.com/"}\n    labels: [production, {name: team-${i % 50}, color: "#d93f0b"}]\n    scan_profile: normal\n`

/** Writes `count` targets from `from` into `path`, a thousand at a time. */
export function writeTargets(path: string, from: number, count: number): void {
  const fd = openSync(path, 'w')
  writeSync(fd, 'targets:\n')
  for (let start = from; start < from + count; start += 1000) {
    let chunk = ''
    for (let i = start; i < Math.min(start + 1000, from + count); i++) chunk += target(i)
    writeSync(fd, chunk)
  }
  closeSync(fd)
}

/** Figures of the runs, printed after the file. */
export const figures: string[] = []
afterAll(() => console.log(`size:\n  ${figures.join('\n  ')}`))

export const noCrash = (run: Run) => {
  expect(run.signal).toBeNull()
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
  expect(run.stderr).not.toMatch(/RangeError|heap out of memory|unexpected failure/i)
}

/**
 * `resources` targets (a multiple of 100) in 100 files and in one file: validate, and plan against
 * the emulator in its own process, each within the memory budget. The timeouts grow with the size
 * (memory is the check here, not time).
 */
export function describeConfigurationOf(resources: number): void {
  describe(`a configuration of ${resources.toLocaleString('en')} resources`, () => {
    const root = tempdir()
    const many = join(root, 'many')
    const single = join(root, 'single')

    beforeAll(() => {
      mkdirSync(many)
      const perFile = resources / 100
      for (let f = 0; f < 100; f++) writeTargets(join(many, `targets-${String(f).padStart(3, '0')}.yaml`), f * perFile, perFile)
      mkdirSync(single)
      writeTargets(join(single, 'targets.yaml'), 0, resources)
    })

    it.each([
      ['in 100 files', 'many', '100 files'],
      [`in one file (${Math.round((resources * 170) / 1e6)} MB)`, 'single', '1 file'],
    ])(`validates %s within ${BUDGET_MB} MB`, { timeout: Math.max(60_000, resources * 1.2) }, async (what, dir, files) => {
      const run = await scansync(['validate', dir], { cwd: root })
      noCrash(run)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toBe(`Valid: ${files}, ${resources} targets, 0 assets, 0 agents.\n`)
      figures.push(`validate ${resources} resources ${what}: peak RSS ${run.rssMb} MB, ${run.ms} ms`)
      expect(run.rssMb).toBeLessThan(BUDGET_MB)
    })

    it(`plan against the emulator (its own process): works within ${BUDGET_MB} MB, no crash`, { timeout: Math.max(90_000, resources * 3) }, async () => {
      const seed = join(root, 'seed.json')
      writeFileSync(seed, JSON.stringify({ targets: Array.from({ length: resources }, (_, i) => ({ id: id(i), site: { name: `Site ${i}`, url: `https://s${i}.example.com/` }, labels: [{ name: 'production' }, { name: `team-${i % 50}`, color: '#d93f0b' }], scan_profile: 'normal' })) }))
      const server = spawn(process.execPath, [BIN, 'emulator', '--seed', seed, '--port', '0', '--token', 'size-token'], { stdio: ['ignore', 'pipe', 'pipe'] })
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = ''
          server.stdout.on('data', (chunk) => {
            out += chunk
            const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
            if (found) resolve(found[1])
          })
          server.on('close', (code) => reject(new Error(`the emulator exited (${code})`)))
        })
        const run = await scansync(['plan', 'many', '--detailed-exitcode'], { cwd: root, env: { SCANSYNC_API_URL: url, SCANSYNC_API_TOKEN: 'size-token' } })
        noCrash(run)
        // Without a terminal a long read reports its progress every few seconds, and nothing else.
        expect(run.stderr.replace(/^Reading: \d+ of \d+ done \(\d+ s\)\n/gm, '')).toBe('')
        expect(run.code).toBe(0)
        expect(run.stdout).toContain(`Plan: 0 to change, ${resources} unchanged.`)
        figures.push(`plan ${resources} resources (${resources / 100} list pages): peak RSS ${run.rssMb} MB, ${run.ms} ms`)
        // It peaked over 1 GB: every page was held until the last arrived, and V8 let the garbage pile up.
        expect(run.rssMb).toBeLessThan(BUDGET_MB)
      } finally {
        server.kill('SIGTERM')
      }
    })
  })
}

