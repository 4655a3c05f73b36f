// Review round 25 (every claim in the project's own docs is true today): docs/reliability.md said a
// UTF-16 file gets `the file is not valid UTF-8 text` at its first bad byte; since round 18 it is
// named for what it is, at 1:1, saying to save it as UTF-8. The page quotes those words now.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const doc = readFileSync(join(ROOT, 'docs', 'reliability.md'), 'utf8')
const utf16 = (text: string): Buffer => Buffer.from(text, 'utf16le')

describe('docs/reliability.md: a UTF-16 file', () => {
  it.each([
    ['with a byte order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16('targets: []\n')])],
    ['without one', utf16('targets: []\n')],
  ])('%s: validate says what the page quotes, at 1:1', async (_, bytes) => {
    const dir = tempdir()
    const file = join(dir, 'targets.yaml')
    writeFileSync(file, bytes)
    const run = await runCli(['validate', dir])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/targets\.yaml:1:1: the file is UTF-16 text .*, not UTF-8: save it as UTF-8/)
    expect(run.stderr).not.toContain('not valid UTF-8 text')
    expect(doc).toContain('`the file is UTF-16 text …, not UTF-8: save it as UTF-8`, at 1:1')
  })
})
