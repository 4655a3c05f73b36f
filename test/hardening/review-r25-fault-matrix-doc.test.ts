// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md said
// `test/hardening/faults.test.ts` runs every row of the fault table, though it runs one row of each
// kind in `npm test` and the whole table is `faults.slow.test.ts` (`npm run test:slow`): a reader
// looking for the timeout rows in `npm test` found them missing. The page names each file for what
// it runs.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
const faults = doc.slice(doc.indexOf('## Faults of the service and the network'), doc.indexOf('## Interrupts'))
const source = (name: string): string => readFileSync(join(ROOT, 'test', 'hardening', name), 'utf8')

describe('docs/reliability.md, faults: which file runs which rows', () => {
  it('the whole table is the slow run, as the files say', () => {
    expect(source('faults.slow.test.ts')).toContain('describeFaultMatrix(FAULT_ROWS)')
    expect(source('faults.test.ts')).toContain('describeFaultMatrix(FAULT_ROWS.filter(')
    expect(faults).toMatch(/`test\/hardening\/faults\.slow\.test\.ts` \(in `npm run test:slow`\) runs `plan` and `apply` end to end\s+\(in-process, against the emulator on 127\.0\.0\.1 with its fault injection\) for each row of/)
    expect(faults).not.toMatch(/`test\/hardening\/faults\.test\.ts` runs `plan` and `apply` end to end/)
    expect(faults).toMatch(/`test\/hardening\/faults\.test\.ts` runs one row of each kind of fault and outcome in `npm test`/)
  })
})
