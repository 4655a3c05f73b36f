// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md
// names, for each hostile input, fault and interrupt, the test that shows it. Tests get renamed and
// merged: `cli/review-r23-completion-whole` and `cli/review-r23-version-whole` were merged into
// `cli/review-r23-nearly-full-file` in round 23, and the table still sent readers to the two files
// that no longer exist. Every test a table names, and every `test/…` path the page gives, must be
// a file of the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
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
