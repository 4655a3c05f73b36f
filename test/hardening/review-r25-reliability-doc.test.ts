// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md had
// gone stale in places a reader relies on, each pinned here:
// - the tests its tables name: `cli/review-r23-completion-whole` and `cli/review-r23-version-whole`
//   were merged into `cli/review-r23-nearly-full-file` in round 23, and the table still sent readers
//   to files that no longer exist; every test a table names, and every `test/…` path, must exist;
// - its Limits: "at most 100 aliases" expanded, though the loader bounds what aliases and merge keys
//   add (ten times the values written, plus 100,000); MAX_FILE_BYTES and READ_LIMITS placed in files
//   that only import them;
// - which file runs what: the whole fault table and the 100,000-resource size figures are the slow
//   files (`npm run test:slow`), not `faults.test.ts` and `size.test.ts`.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
const source = (name: string): string => readFileSync(join(ROOT, 'test', 'hardening', name), 'utf8')

const testDirs = readdirSync(join(ROOT, 'test'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)

/** The test files a name in a table's `test` column stands for: `dir/name`, or a bare `name` in any folder of test/. */
function filesFor(name: string): string[] {
  const dirs = name.includes('/') ? [name.slice(0, name.indexOf('/'))] : testDirs
  const base = name.includes('/') ? name.slice(name.indexOf('/') + 1) : name
  return dirs.flatMap((dir) => [`test/${dir}/${base}.test.ts`, `test/${dir}/${base}.slow.test.ts`]).filter((file) => existsSync(join(ROOT, file)))
}

/** The names in the last cell of each row of the tables whose last column is `test`. */
function namedTests(): string[] {
  const names: string[] = []
  let inTestTable = false
  for (const line of doc.split('\n')) {
    if (!line.startsWith('|')) {
      inTestTable = false
      continue
    }
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim())
    if (/^test$/.test(cells.at(-1) ?? '') && !inTestTable) {
      inTestTable = true
      continue
    }
    if (!inTestTable || /^-+$/.test(cells[0] ?? '')) continue
    const cell = (cells.at(-1) ?? '').replace(/\([^)]*\)/g, '')
    for (const part of cell.split(',')) if (part.trim() !== '') names.push(part.trim())
  }
  return [...new Set(names)]
}

describe('docs/reliability.md names tests that exist', () => {
  it('the tables name tests (the parse finds them)', () => {
    expect(namedTests()).toEqual(expect.arrayContaining(['fuzz-loader', 'interrupt', 'trust', 'cli/review-r22-full-disk']))
  })

  it.each(namedTests().map((name) => [name]))('%s is a test file', (name) => {
    expect(filesFor(name), `${name} (docs/reliability.md)`).not.toEqual([])
  })

  it('every test/… path it gives exists', () => {
    const paths = [...doc.matchAll(/\btest\/[\w./-]+\.ts\b/g)].map((match) => match[0])
    expect(paths.length).toBeGreaterThan(5)
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([])
  })
})

const limits = doc.slice(doc.indexOf('## Limits'), doc.indexOf('## Found and fixed'))

describe('docs/reliability.md, Limits', () => {
  it('each constant it names is defined in the file it names', () => {
    const named = [...limits.matchAll(/\(((?:`[A-Z_]+`, )+)(src\/[\w/.-]+\.ts)\)/g)].flatMap((match) =>
      [...match[1]!.matchAll(/`([A-Z_]+)`/g)].map((name) => ({ name: name[1]!, file: match[2]! })),
    )
    expect(named.map((n) => n.name)).toEqual(expect.arrayContaining(['MAX_FILE_BYTES', 'READ_LIMITS', 'EXPANSION_FACTOR', 'EXPANSION_ALLOWANCE']))
    for (const { name, file } of named) expect(readFileSync(join(ROOT, file), 'utf8'), `${name} in ${file}`).toMatch(new RegExp(`\\bconst ${name}\\b`))
  })

  it('says no 100-alias limit, and validate reads a file with 200 aliases of one anchor', async () => {
    expect(doc).not.toMatch(/at most 100 aliases|aliases expanded in one file \| 100 \|/)
    const lines = ['x-labels: &labels [production]', 'targets:']
    for (let i = 0; i < 200; i++) lines.push(`  - id: T${String(i).padStart(11, '0')}`, '    labels: *labels')
    const dir = tempdir({ 'targets.yaml': lines.join('\n') + '\n' })
    const run = await runCli(['validate', dir])
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain('200 targets')
    expect(run.code).toBe(0)
  })

  it('a billion laughs is refused with the words the page quotes', async () => {
    const rows = ['x-a: &a [x, x, x, x, x, x, x, x, x, x]']
    let previous = 'a'
    for (const name of 'bcdefgh') {
      rows.push(`x-${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`)
      previous = name
    }
    const dir = tempdir({ 'laughs.yaml': rows.join('\n') + '\n' })
    const run = await runCli(['validate', dir])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/laughs\.yaml:1:1: too many aliases expanded: the \d+ values written would grow to more than \d+; /)
    expect(doc).toContain('`too many aliases expanded: the N values written would grow to more than M; …`')
  })
})

const faults = doc.slice(doc.indexOf('## Faults of the service and the network'), doc.indexOf('## Interrupts'))

describe('docs/reliability.md, faults: which file runs which rows', () => {
  it('the whole table is the slow run, as the files say', () => {
    expect(source('faults.slow.test.ts')).toContain('describeFaultMatrix(FAULT_ROWS)')
    expect(source('faults.test.ts')).toContain('describeFaultMatrix(FAULT_ROWS.filter(')
    expect(faults).toMatch(/`test\/hardening\/faults\.slow\.test\.ts` \(in `npm run test:slow`\) runs `plan` and `apply` end to end\s+\(in-process, against the emulator on 127\.0\.0\.1 with its fault injection\) for each row of/)
    expect(faults).not.toMatch(/`test\/hardening\/faults\.test\.ts` runs `plan` and `apply` end to end/)
    expect(faults).toMatch(/`test\/hardening\/faults\.test\.ts` runs one row of each kind of fault and outcome in `npm test`/)
  })
})

const size = doc.slice(doc.indexOf('## Size'), doc.indexOf('## Limits'))

describe('docs/reliability.md, size: which file runs what', () => {
  it('100,000 resources are the slow run, 10,000 the every-run one, as the files say', () => {
    expect(source('size.slow.test.ts')).toContain('describeConfigurationOf(100_000)')
    expect(source('size.test.ts')).toContain('describeConfigurationOf(10_000)')
    expect(size).toMatch(/`test\/hardening\/size\.test\.ts` \(a configuration of 10,000 resources, in `npm test`\)/)
    expect(size).toMatch(/`test\/hardening\/size\.slow\.test\.ts` \(the 100,000 below, in `npm run test:slow`\)/)
    expect(doc).toMatch(/except the full fuzzing, fault and size runs,\s+which are in `npm run test:slow`/)
  })
})
