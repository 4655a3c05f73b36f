// Review round 26 (an apply report a person can act on): a label renamed on 3,000 targets, 17 of
// whose PATCHes fail. The text report (the default, what a CI log shows) printed 3,000 outcome
// lines with the 17 `✗` among them and only a count at the end, `-q` the same: finding the failures
// meant searching a log of 3,000 lines, and nothing said where each is declared. It now ends, before
// the summary line, with the changes to look at, each once, at its YAML file:line with the reason.
import { describe, expect, it } from 'vitest'
import { parseFaultSpec } from '../../src/emulator/faults.js'
import type { EmulatorSeed } from '../../src/emulator/index.js'
import { apply, emulator, tempdir } from './helpers.js'

const COUNT = 3_000
const idOf = (i: number) => `Rc${String(i).padStart(10, '0')}`
const FAILING = [11, 240, 512, 733, 901, 1_111, 1_234, 1_500, 1_777, 1_999, 2_048, 2_222, 2_345, 2_600, 2_777, 2_900, 2_998]

function seed(): EmulatorSeed {
  const targets = Array.from({ length: COUNT }, (_, i) => ({ id: idOf(i), site: { name: `Site ${i}`, url: `https://s${i}.example.com/` }, labels: [{ name: 'old-label', color: 'green' }] }))
  return { teams: [], agents: [], targets, assets: [] } as unknown as EmulatorSeed
}

const yaml = 'targets:\n' + Array.from({ length: COUNT }, (_, i) => `  - id: ${idOf(i)}\n    labels: [{name: new-label, color: green}]\n`).join('')
/** The YAML line declaring target i (`- id:` at column 5). */
const lineOf = (i: number) => 2 + 2 * i

describe('apply text report of 3,000 changes with 17 failures', () => {
  it('ends with the failures gathered, each at its file:line, before the summary line (also with -q)', async () => {
    for (const quiet of [false, true]) {
      const em = await emulator({ seed: seed() })
      em.setFaults(FAILING.map((i) => parseFaultSpec(`500,method=PATCH,path=/targets/${idOf(i)}/`)))
      const dir = tempdir({ 'targets.yaml': yaml })
      const run = await apply(em, dir, { quiet, parallelism: 16 }, { SCANSYNC_MAX_ATTEMPTS: '1' })
      expect(run.code).toBe(1)
      const lines = run.out.trimEnd().split('\n')
      // What was printed before stays: a line per change, then the summary line, last.
      expect(lines.filter((line) => line.startsWith('✓ target '))).toHaveLength(COUNT - FAILING.length)
      expect(lines.at(-1)).toBe(`Apply: ${COUNT - FAILING.length} applied, ${FAILING.length} failed, 0 not applied, 0 unchanged.`)
      const start = lines.indexOf(`Needs attention (${FAILING.length} of ${COUNT} changes):`)
      expect(start, run.out.slice(-3_000)).toBeGreaterThan(COUNT)
      const recap = lines.slice(start + 1, -2)
      expect(lines.at(-2)).toBe('')
      expect(recap).toHaveLength(FAILING.length)
      FAILING.forEach((i, n) =>
        expect(recap[n]).toBe(
          `  ✗ targets.yaml:${lineOf(i)}:5: target ${idOf(i)} "Site ${i}" failed: the service failed (HTTP 500): A server error occurred.; it may or may not have been applied: run scansync plan to see`,
        ),
      )
    }
  }, 120_000)
})
