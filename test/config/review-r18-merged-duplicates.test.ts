// Review round 18, authoring at scale: a value that must be unique (a target's URL when it has no
// id, an id, a rule's name) taken by two declarations from one shared block (`<<: *web`, a copy
// where the override was forgotten) was reported twice at the anchor's line, each error saying
// "declared twice: here and at" that same line: the two declarations could not be found. Each
// error is now at its own declaration, naming the other's line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, removeTestdirs, runCli, testdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)
afterAll(removeTestdirs)

const errorsOf = async (files: Record<string, string>) => {
  const { code, stderr } = await runCli(['validate', '.'], { cwd: testdir(files) })
  expect(code).toBe(1)
  return stderr.split('\n').filter(Boolean)
}

describe('a unique value two declarations take from one anchor is reported at each declaration', () => {
  it("a target's URL (no id)", async () => {
    const text = [
      'x-web: &web',
      '  url: https://shop.example.com/',
      '  name: Shop',
      'targets:',
      '  - site: {<<: *web}',
      '  - site:',
      '      <<: *web',
      '      name: Shop (copy)',
      '',
    ].join('\n')
    expect(await errorsOf({ 'a.yaml': text })).toEqual([
      'a.yaml:5:5: target with site.url "https://shop.example.com/" is declared twice without id: here and at a.yaml:6 (without id, the site.url is what identifies it); declare it once',
      'a.yaml:6:5: target with site.url "https://shop.example.com/" is declared twice without id: here and at a.yaml:5 (without id, the site.url is what identifies it); declare it once',
      '2 errors; nothing was sent.',
    ])
  })

  it('an id', async () => {
    const text = 'x-t: &t\n  id: 2DZkoZH8WMEM\n  scan_profile: lightning\ntargets:\n  - <<: *t\n  - <<: *t\n    site: {name: x}\n'
    expect(await errorsOf({ 'a.yaml': text })).toEqual([
      'a.yaml:5:5: target 2DZkoZH8WMEM is declared twice: here and at a.yaml:6',
      'a.yaml:6:5: target 2DZkoZH8WMEM is declared twice: here and at a.yaml:5',
      '2 errors; nothing was sent.',
    ])
  })

  it("a rule's name", async () => {
    const text = [
      'x-rule: &rule',
      '  name: has-label',
      '  description: Every target carries a label',
      '  kind: target',
      '  require: {required: [labels]}',
      'policies:',
      '  - <<: *rule',
      '  - <<: *rule',
      '    level: warning',
      '',
    ].join('\n')
    expect(await errorsOf({ 'p.yaml': text })).toEqual([
      "p.yaml:7:5: policy has-label is declared twice: here and at p.yaml:8; a rule's name must be unique",
      "p.yaml:8:5: policy has-label is declared twice: here and at p.yaml:7; a rule's name must be unique",
      '2 errors; nothing was sent.',
    ])
  })

  it('values written at each declaration are still reported where they are written', async () => {
    const text = 'targets:\n  - id: 2DZkoZH8WMEM\n  - scan_profile: x\n    id: 2DZkoZH8WMEM\n'
    expect(await errorsOf({ 'a.yaml': text })).toEqual([
      'a.yaml:2:9: target 2DZkoZH8WMEM is declared twice: here and at a.yaml:4',
      'a.yaml:4:9: target 2DZkoZH8WMEM is declared twice: here and at a.yaml:2',
      '2 errors; nothing was sent.',
    ])
  })
})
