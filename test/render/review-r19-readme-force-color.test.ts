// README, "Output formats": "`FORCE_COLOR` (not `0`) turns it on". FORCE_COLOR=false turned colour
// off too (as Node.js itself reads the variable), so a user reading the README expected colour
// from FORCE_COLOR=false and got none. The values the README names as not turning colour on are
// exactly those the output step reads as off, and every other value turns it on (NO_COLOR unset,
// no terminal).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { colorEnabled } from '../../src/core/io.js'
import { ROOT } from '../helpers/cli.js'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ')
const notADisplay = { write: () => true, isTTY: false }

describe('README: the values of FORCE_COLOR', () => {
  it('names exactly the values that do not turn colour on', () => {
    const claim = /`FORCE_COLOR` \(not ((?:`[^`]*`(?:, | or )?)+)\) turns it on/.exec(readme)
    expect(claim, 'the README says which values of FORCE_COLOR turn colour on').not.toBeNull()
    const named = [...claim![1].matchAll(/`([^`]*)`/g)].map((m) => m[1]).sort()
    const candidates = ['0', 'false', '1', 'true', '2', '3', 'yes', '']
    const off = candidates.filter((value) => !colorEnabled(notADisplay as never, { FORCE_COLOR: value })).sort()
    expect(named).toEqual(off)
  })
})
