// A resource declared by id that someone deleted by hand: drift reports it as drift (exit 2), in
// every format, beside the rest of the drift, instead of failing the whole report (exit 1). Plan
// and apply still refuse it: they cannot update what is gone. The real CLI against the emulator.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig } from './helpers.js'
import { lineOf, seedWithDeletions } from './deleted-resources.js'

beforeAll(ensureBuilt, 120_000)

const validatePlan = createAjv().getSchema('plan.schema.json')!

describe('drift: a declared resource deleted on the service', () => {
  it('json: the deleted ones under "missing" with where they are declared, the rest of the drift still reported, exit 2', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['drift', '.', '--format', 'json'])
    expect(run.code).toBe(2)
    const document = JSON.parse(run.stdout)
    expect(validatePlan(document), JSON.stringify(validatePlan.errors)).toBe(true)
    expect(document.missing).toEqual([
      { kind: 'target', id: '7QwErTy2UiOp', name: 'Shop (staging)', file: 'targets/shop.yaml', line: lineOf(join(dir, 'targets', 'shop.yaml'), '7QwErTy2UiOp') },
      { kind: 'asset', id: '4TrEwQ9aSdFg', name: null, file: 'assets.yaml', line: lineOf(join(dir, 'assets.yaml'), '4TrEwQ9aSdFg') },
    ])
    expect(document.summary.missing).toBe(2)
    // The other declared resources are compared as before; the deleted ones are not counted in sync.
    expect(document.changes.length).toBeGreaterThan(0)
    const declared = 8
    expect(document.summary.change + document.summary.unchanged + document.summary.missing).toBe(declared)
    // Only GETs: drift never writes.
    expect(em.requests().every((r) => r.method === 'GET')).toBe(true)
  })

  it('text, github and markdown say which, where, and count them in the summary line', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const text = await cli(em, dir, ['drift', '.'])
    expect(text.code).toBe(2)
    expect(text.stdout).toMatch(/^! target 7QwErTy2UiOp "Shop \(staging\)" \(declared at targets\/shop\.yaml:\d+\)$/m)
    expect(text.stdout).toMatch(/^! asset 4TrEwQ9aSdFg \(declared at assets\.yaml:\d+\)$/m)
    expect(text.stdout).toMatch(/^Drift: .*, 2 declared by id but gone from the service\.$/m)
    const github = await cli(em, dir, ['drift', '.', '--format', 'github'])
    expect(github.code).toBe(2)
    expect(github.stdout).toContain(`::error file=targets/shop.yaml,line=${lineOf(join(dir, 'targets', 'shop.yaml'), '7QwErTy2UiOp')},`)
    expect(github.stdout).toMatch(/title=scansync drift%3A gone from the service::target 7QwErTy2UiOp "Shop \(staging\)" is declared here, but the service no longer has it/)
    const markdown = await cli(em, dir, ['drift', '.', '--format', 'markdown'])
    expect(markdown.code).toBe(2)
    expect(markdown.stdout).toMatch(/\| ! \| target \| <code>7QwErTy2UiOp<\/code> \| Shop \(staging\) \| <code>targets\/shop\.yaml:\d+<\/code> \|/)
    expect(markdown.stdout).toMatch(/\*\*Drift: .*, 2 declared by id but gone from the service\.\*\*/)
  })

  it('with nothing else drifted, the summary does not say "No drift."', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['drift', '.', '--id', '7QwErTy2UiOp'])
    expect(run.code).toBe(2)
    expect(run.stdout).not.toMatch(/No (declared resource drifted|drift)\./)
    expect(run.stdout).toMatch(/^Drift: 0 resources differ from the configuration, 0 in sync, 1 declared by id but gone from the service\.$/m)
  })

  it('every read a 404 (a wrong base URL) is still that error, not every resource deleted', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['drift', '.', '--id', '7QwErTy2UiOp', '--api-url', `${em.url}/api/v1`])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/every read got 404 Not Found .* is probably wrong/)
  })

  it('plan still refuses it, naming where it is declared (it cannot update what is gone)', async () => {
    const em = await emulator({ seed: seedWithDeletions() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['plan', '.'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^targets\/shop\.yaml:\d+:\d+: target 7QwErTy2UiOp not found/m)
  })
})

describe('a wrong base URL when whole lists are read first', () => {
  it.each([
    ['drift --unmanaged', ['drift', '.', '--unmanaged']],
    ['a target declared by its URL', ['plan', 'by-url.yaml']],
  ])('%s: says the service URL is probably wrong, not "name them with --id"', async (_, args) => {
    const em = await emulator()
    const dir = exampleConfig()
    writeFileSync(join(dir, 'by-url.yaml'), 'targets:\n  - site: {name: New, url: "https://new.example.com/"}\n')
    const run = await cli(em, dir, [...args, '--api-url', `${em.url}/api/v1`])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/every read got 404 Not Found .* is probably wrong/)
    expect(run.stderr).not.toMatch(/name them with --id/)
  })
})
