import { describe, expect, it } from 'vitest'
import { isWeakSecret } from '../../src/core/redaction.js'
import { freshnessProblem } from '../../src/plan/staleness.js'
import type { PlannedResource } from '../../src/plan/staleness.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { emulator, exampleSeed, filesIn, importRun, tempDir } from '../import/helpers.js'

// Review round 17, last review: scansync's own words are too common to substitute (a secret equal
// to one rewrote its lines and so told which word it is), but the list missed those of import's
// lines and files (`Set these environment variables…`, the header's `install … repository`) and
// of the message the creation-lock wait brought (`waited`, `creating`): a basic-auth password
// `Variables` printed `Set these environment (sensitive) to the secret values`.
const words = (text: string): string[] => text.match(/[A-Za-z]{6,}/g) ?? []

function seed(password: string): EmulatorSeed {
  const seed = exampleSeed()
  const shop = seed.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  Object.assign(shop.site!, { has_basic_auth: true, basic_auth: { username: 'u', password, password_is_sensitive: true } })
  return seed
}

describe("scansync's own words in import's lines and the creation-lock wait's message", () => {
  it('are all too common to substitute', async () => {
    const em = await emulator({ seed: seed('Opaque-pw-42') })
    const dir = tempDir()
    const run = await importRun(em, { all: true, out: dir })
    expect(run.code, run.err).toBe(0)
    // scansync's own lines: the files' comments and the lines of stderr that name no resource
    // (a variable's line, a file's path: the service's and the user's words).
    const comments = Object.values(filesIn(dir)).join('\n').split('\n').filter((l) => /^\s*#/.test(l) && !/[A-Z0-9]+_[A-Z0-9_]+/.test(l))
    const lines = run.err.split('\n').filter((l) => l !== '' && !/^\s/.test(l) && !l.startsWith('Wrote '))
    const stale = { desired: { kind: 'asset', id: 'X' }, change: {} } as unknown as PlannedResource
    const wait = freshnessProblem({ ready: [], stale: [stale], done: [] }, 'waited')!
    const own = [...comments, ...lines, wait].flatMap(words)
    expect(own.length).toBeGreaterThan(10)
    expect(own.filter((word) => !isWeakSecret(word))).toEqual([])
  })

  it('a password equal to one leaves the line as it is, and is not shown', async () => {
    const em = await emulator({ seed: seed('Variables') })
    const dir = tempDir()
    const run = await importRun(em, { all: true, out: dir })
    expect(run.code, run.err).toBe(0)
    expect(run.err).toContain('Set these environment variables to the secret values')
    expect(run.err + Object.values(filesIn(dir)).join('\n')).not.toContain('(sensitive)')
  })
})
