// `scansync validate` (or plan) with PATH left out, in a repository holding another tool's YAML
// (a docker-compose file) and a configuration spread over many folders (one per service), took
// time growing with the square of the folders before printing its hint ("Pass the configuration
// directory: …"): each folder was compared with every other to leave out those inside another.
// 16,000 folders: 33 s of CPU, 8,000: 8.7 s, where the files load in 4 s. Each folder's own
// parents are now looked up. The size below would hold the old code for minutes (the test's
// timeout is the check; nothing is timed).
import { describe, expect, it } from 'vitest'
import { FOREIGN_FILE } from '../../src/config/foreign-file.js'
import { defaultPathHint } from '../../src/cli/run/config-diagnostics.js'
import type { Diagnostic } from '../../src/core/diagnostics.js'

const foreign: Diagnostic = { file: 'compose.yaml', line: 1, column: 1, path: '', message: `${FOREIGN_FILE}: its top-level keys are services` }
const hint = (files: string[]) => defaultPathHint([], [foreign], ['compose.yaml', ...files], 'validate')

describe('the hint to pass the configuration directory', () => {
  it('names the folders not inside another (a folder whose name only starts like another is its own)', () => {
    const files = ['a/x.yaml', 'a-b/y.yaml', 'a/b/z.yaml', 'c/d/e/f.yaml', 'c/d/g.yaml', 'c/dd/h.yaml', 'top.yaml']
    expect(hint(files)).toMatch(/Pass the configuration directory: scansync validate a a-b c\/d c\/dd$/)
    expect(hint(['/abs/one/x.yaml', '/abs/one/two/y.yaml', '/abs/onex/z.yaml'])).toMatch(/scansync validate \/abs\/one \/abs\/onex$/)
  })

  it('is worked out in a time that grows with the folders, not their square (40,000 folders)', () => {
    const n = 40_000
    const files = Array.from({ length: n }, (_, i) => `services/svc-${i}/scansync/targets.yaml`)
    files.push('services/svc-7/scansync/nested/more.yaml')
    const text = hint(files)!
    expect(text).toContain('scansync validate services/svc-0/scansync services/svc-1/scansync ')
    expect(text).not.toContain('nested')
    expect(text.split(' services/').length - 1).toBe(n)
  })
})
