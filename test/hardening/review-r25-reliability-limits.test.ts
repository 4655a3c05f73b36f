// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md said
// that at most 100 aliases are expanded in a file, though the loader bounds what aliases and merge
// keys add (ten times the values written, plus 100,000) and reads a file with hundreds of aliases
// of one anchor; and its Limits table placed MAX_FILE_BYTES in src/config/load.ts and READ_LIMITS in
// src/live/read.ts, which only import them. Each constant the table names is defined in the file
// it names, and the alias limit is the one validate applies.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
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
