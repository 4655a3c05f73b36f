// Review round 18, authoring at scale: a team keeps its shared blocks (a blackout window, a rule's
// `when`) under x- keys in one file and its targets or rules in others. Anchors reach only the
// aliases of their own file, so each alias is refused; the error said "write &hours on the value
// it stands for, above this line", which the author had done, in another file, and nothing said
// why that anchor did not count. It now names the file and line where the anchor is written, and
// says that an anchor reaches only its own file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, removeTestdirs, runCli, testdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)
afterAll(removeTestdirs)

const COMMON = [
  '# Shared blocks of the team',
  'x-office-hours: &office-hours {begin: "08:00", cease: "18:00", weekdays: [1, 2, 3, 4, 5]}',
  'x-production: &production',
  '  required: [labels]',
  '  properties: {labels: {contains: {required: [name], properties: {name: {const: production}}}}}',
  'targets:',
  '  - id: 2DZkoZH8WMEM',
  '    blackout_period: {<<: *office-hours, enabled: true}',
  '',
].join('\n')

describe('an alias whose anchor is written in another file', () => {
  it('is refused at the alias, naming the file and line of the anchor and why it does not reach', async () => {
    const cwd = testdir({
      'common.yaml': COMMON,
      'shop/targets.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    blackout_period:\n      <<: *office-hours\n      enabled: false\n',
      'rules/policies.yaml': 'policies:\n  - name: production-has-blackout\n    description: d\n    kind: target\n    when: *production\n    require: {required: [blackout_period]}\n',
    })
    const { code, stderr } = await runCli(['validate', '.'], { cwd })
    expect(code).toBe(1)
    expect(stderr.split('\n').filter(Boolean)).toEqual([
      'rules/policies.yaml:5:11: the alias *production names no anchor before it: write &production on the value it stands for, above this line ' +
        '(&production is written in common.yaml at line 3, but an anchor reaches only the aliases of its own file: write the shared block in this file too, under an x- key)',
      'shop/targets.yaml:4:11: the alias *office-hours names no anchor before it: write &office-hours on the value it stands for, above this line ' +
        '(&office-hours is written in common.yaml at line 2, but an anchor reaches only the aliases of its own file: write the shared block in this file too, under an x- key)',
      '2 errors; nothing was sent.',
    ])
  })

  it('an anchor written nowhere, or only in a comment of another file, gets the message as before', async () => {
    const cwd = testdir({
      'a.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    blackout_period: *hours\n',
      'b.yaml': '# blackout_period: &hours, see a.yaml\ntargets:\n  - id: 2DZkoZH8WMEM\n',
    })
    const { code, stderr } = await runCli(['validate', '.'], { cwd })
    expect(code).toBe(1)
    expect(stderr).toContain('a.yaml:3:22: the alias *hours names no anchor before it: write &hours on the value it stands for, above this line\n')
  })
})
