// `plan --out FILE` that ends without saving (a policy of level error, an invalid configuration, a
// service failure) says so on stderr, and says when FILE still holds an earlier run's plan, which
// `apply --plan FILE` would apply as if it were this one. The real CLI against the emulator.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const asset = 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: checked\n'
const strictRule = 'policies:\n  - name: comment-long\n    description: Comments say why\n    kind: asset\n    require: {properties: {comment: {minLength: 50}}}\n'

describe('plan --out that does not save', () => {
  it('a policy of level error: "The plan was not saved to FILE."', async () => {
    const em = await emulator()
    const dir = tempdir({ 'assets.yaml': asset, 'policies.yaml': strictRule })
    const run = await cli(em, dir, ['plan', '.', '--out', 'p.json', '--format', 'json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^The plan was not saved to p\.json\.$/m)
    expect(existsSync(join(dir, 'p.json'))).toBe(false)
  })

  it('an earlier plan at FILE: says it is still there and is not this plan', async () => {
    const em = await emulator()
    const dir = tempdir({ 'assets.yaml': asset })
    const first = await cli(em, dir, ['plan', '.', '--out', 'p.json'])
    expect(first.code).toBe(0)
    const earlier = readFileSync(join(dir, 'p.json'), 'utf8')
    writeFileSync(join(dir, 'assets.yaml'), 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: [not, a, text]\n')
    const invalid = await cli(em, dir, ['plan', '.', '--out', 'p.json'])
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/^The plan was not saved: p\.json still holds an earlier plan, not this one\.$/m)
    writeFileSync(join(dir, 'assets.yaml'), 'assets:\n  - id: 9fGh2Kd8LmQz\n    comment: other\n')
    em.setFaults([parseFaultSpec('503,method=GET')])
    const failed = await cli(em, dir, ['plan', '.', '--out', 'p.json'], { SCANSYNC_MAX_ATTEMPTS: '1' })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/^Error: [\s\S]*^The plan was not saved: p\.json still holds an earlier plan, not this one\.$/m)
    expect(readFileSync(join(dir, 'p.json'), 'utf8')).toBe(earlier)
  })

  it('a plan saved: no such note', async () => {
    const em = await emulator()
    const dir = tempdir({ 'assets.yaml': asset })
    const run = await cli(em, dir, ['plan', '.', '--out', 'p.json'])
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/Saved the plan to p\.json/)
    expect(run.stderr).not.toMatch(/not saved/)
  })
})
