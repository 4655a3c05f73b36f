// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md said
// `test/hardening/size.test.ts` runs the figures of its Size table (100,000 targets validated and
// planned), and that only the fuzzing and fault runs are left to `npm run test:slow`; the 100,000
// are `size.slow.test.ts`, and `npm test` runs 10,000. The page names each file for what it runs.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
const size = doc.slice(doc.indexOf('## Size'), doc.indexOf('## Limits'))
const source = (name: string): string => readFileSync(join(ROOT, 'test', 'hardening', name), 'utf8')

describe('docs/reliability.md, size: which file runs what', () => {
  it('100,000 resources are the slow run, 10,000 the every-run one, as the files say', () => {
    expect(source('size.slow.test.ts')).toContain('describeConfigurationOf(100_000)')
    expect(source('size.test.ts')).toContain('describeConfigurationOf(10_000)')
    expect(size).toMatch(/`test\/hardening\/size\.test\.ts` \(a configuration of 10,000 resources, in `npm test`\)/)
    expect(size).toMatch(/`test\/hardening\/size\.slow\.test\.ts` \(the 100,000 below, in `npm run test:slow`\)/)
    expect(doc).toMatch(/except the full fuzzing, fault and size runs,\s+which are in `npm run test:slow`/)
  })
})
