import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runImport } from '../../src/cli/run/import.js'
import { captureIo, runCli } from '../helpers/cli.js'
import { connection, emulator, importRun, ROOT, tempDir } from './helpers.js'

describe('scansync import (the executable)', () => {
  it('--help describes the command with examples', async () => {
    const result = await runCli(['import', '--help'])
    expect(result.code).toBe(0)
    for (const text of ['--kind', '--id', '--all', '--out', '--force', '--include-defaults', '--api-url', '--parallelism', '--insecure-http', '--debug', 'EXAMPLES', 'import --kind target --all --out config', 'TARGET_<ID>_<FIELD>']) {
      expect(result.stdout).toContain(text)
    }
  })

  it('writes to stdout with the schema line relative to the current directory; names what it needs', async () => {
    const em = await emulator()
    const result = await runCli(['import', '--kind', 'agent', '--id', '3kLx8Qy7Pb2m'], { env: connection(em), spawn: true })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      ['# yaml-language-server: $schema=./schemas/config.schema.json', 'agents:', '  - id: 3kLx8Qy7Pb2m', '    name: dc-lisbon-agent', '    teams: [{name: Platform}]', ''].join('\n'),
    )

    const neither = await runCli(['import', '--kind', 'target'], { env: connection(em) })
    expect(neither.code).toBe(1)
    expect(neither.stderr).toContain('--id ID')
    const both = await runCli(['import', '--kind', 'target', '--all', '--id', 'x'], { env: connection(em) })
    expect(both.code).not.toBe(0)
    const missing = await runCli(['import', '--kind', 'target', '--id', 'NoSuchTarget'], { env: connection(em) })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('NoSuchTarget')
  })

  it('--out refuses to overwrite a file unless --force, and writes nothing then', async () => {
    const em = await emulator()
    const dir = tempDir()
    writeFileSync(join(dir, 'assets.yaml'), 'assets: []\n')
    const refused = await runCli(['import', '--kind', 'target,asset', '--all', '--out', dir], { env: connection(em) })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('assets.yaml exists: pass --force to overwrite')
    expect(existsSync(join(dir, 'targets.yaml'))).toBe(false)
    expect(readFileSync(join(dir, 'assets.yaml'), 'utf8')).toBe('assets: []\n')
    expect(em.requests()).toEqual([])

    const forced = await runCli(['import', '--kind', 'target,asset', '--all', '--out', dir, '--force'], { env: connection(em) })
    expect(forced.code).toBe(0)
    expect(forced.stderr).toContain('Wrote')
    const assets = readFileSync(join(dir, 'assets.yaml'), 'utf8')
    // A temporary directory is no project holding scansync: no machine-specific path is written (issue 17).
    expect(assets.split('\n')[0]).toMatch(/^# Editor schema: install scansync in this repository/)
    expect(assets).not.toContain(ROOT)
    expect(assets).toContain('name: legacy.example.com')
  })
})

describe('--all', () => {
  it('reads 1,000 targets through list pages, not one GET each, with a progress bar on a terminal', async () => {
    const targets = Array.from({ length: 1000 }, (_, i) => ({ id: `Bulk${String(i).padStart(5, '0')}`, site: { name: `Site ${i}`, url: `https://s${i}.example.com/` } }))
    const em = await emulator({ seed: { targets } })
    let progress = ''
    const io = { ...captureIo({ env: connection(em) }), stderr: { write: (text: string) => (progress += text), isTTY: true } }
    const code = await runImport({ kinds: ['target'], all: true }, io)
    expect(code).toBe(0)
    const gets = em.requests().filter((request) => request.method === 'GET')
    expect(gets.every((request) => request.path === '/targets/')).toBe(true)
    expect(gets).toHaveLength(10)
    expect(progress).toContain('Reading targets')
    const text = io.out()
    expect(text.match(/^ {2}- id: /gm)).toHaveLength(1000)
    expect(text.indexOf('Bulk00000')).toBeLessThan(text.indexOf('Bulk00999'))
  })

  it('gives an empty list for a kind with nothing in it', async () => {
    const em = await emulator({ seed: { targets: [] } })
    const result = await importRun(em, { kinds: ['target'], all: true })
    expect(result.code).toBe(0)
    expect(result.out.split('\n').slice(1).join('\n')).toBe('targets: []\n')
  })
})
