// Issue 8: four hangs in the making that the loader fuzzing and the scaling probes found, work
// quadratic in the size of a hostile file, so that a file of a few hundred kilobytes (a pull
// request, in CI) held a run for minutes or hours. Each probe feeds a file large enough that the
// old code would have run far past vitest's timeout (given per test), while the fixed code takes a
// second or two: no wall-clock assertion, the timeout is the check. At full size in
// quadratic-probes.slow.test.ts (`npm run test:slow`), at a tenth in loader-regressions.test.ts.
import { describe, expect, it } from 'vitest'
import { loadFile } from '../../src/config/load.js'

const load = (text: string) => loadFile('a.yaml', Buffer.from(text), {})
/** Generous for a linear run on a slow 2-core runner; the quadratic runs took minutes. */
const BUDGET = 30_000

/**
 * The probes at `share` of their full size: the full size (share 1, `npm run test:slow`) is what
 * the old code could not finish within the timeout; a share keeps every check on every `npm test`.
 */
export function describeQuadraticProbes(share: number): void {
  const size = (full: number) => Math.round(full * share)
  const count = (n: number) => n.toLocaleString('en')

  describe('no work quadratic in the size of a file', () => {
    it('a long run of spaces or tabs (the nullKey pattern of the fast path backtracked over it from every space)', { timeout: BUDGET }, () => {
      // Before: 40,000 spaces took 0.6 s, so 500,000 took about 90 s.
      const run = size(500_000)
      for (const blank of [' ', '\t']) {
        const spaces = blank.repeat(run)
        const result = load(`targets:\n  - id: T1\n    site:\n      name: x${spaces}\n      desc: {a: b${spaces}}\n`)
        expect(result.diagnostics.length).toBeGreaterThan(0)
        expect(load(`targets:\n  - id: T1\n    site: {name: x}${spaces}\n`).diagnostics).toEqual([])
      }
    })

    it(`a mapping of ${count(size(100_000))} keys on the precise path (\`yaml\` compared each key with every key before it)`, { timeout: BUDGET }, () => {
      // The anchor sends the file to the precise path. Before: 10,000 keys took 1.2 s; 100,000, two minutes.
      const n = size(100_000)
      const text = `x: &a 1\ntargets:\n  - id: T1\n    site:\n${Array.from({ length: n }, (_, i) => `      k${i}: ${i}`).join('\n')}\n      k7: again\n`
      const { diagnostics } = load(text)
      expect(diagnostics).toHaveLength(1)
      expect(diagnostics[0]).toMatchObject({ line: n + 5, column: 7, message: 'YAML: duplicate key "k7" (first at line 12): a key may appear only once in a mapping' })
    })

    it(`${count(size(20_000))} mappings each with a duplicate key (each duplicate searched the whole document for its first place)`, { timeout: BUDGET }, () => {
      // Before: 10,000 took 31 s; 20,000, two minutes.
      const n = size(20_000)
      const { diagnostics } = load(`targets:\n${Array.from({ length: n }, (_, i) => `  - {id: T${i}, id: x}`).join('\n')}\n`)
      expect(diagnostics).toHaveLength(n)
      expect(diagnostics[n - 1]).toMatchObject({ line: n + 1, column: `  - {id: T${n - 1}, `.length + 1, message: `YAML: duplicate key "id" (first at line ${n + 1}): a key may appear only once in a mapping` })
    })

    it(`${count(size(100_000))} unknown keys, each located (finding a key looked through every key of its mapping)`, { timeout: BUDGET }, () => {
      // Before: 40,000 took 9 s; 100,000, a minute. Positions are worked out when read: all are read.
      const n = size(100_000)
      const { diagnostics } = load(Array.from({ length: n }, (_, i) => `k${i}: v`).join('\n'))
      expect(diagnostics).toHaveLength(n)
      const lines = diagnostics.map((d) => d.line)
      expect(lines[0]).toBe(1)
      expect(lines[n - 1]).toBe(n)
      expect(diagnostics[n - 1].message).toMatch(new RegExp(`^k${n - 1}: unknown field`))
    })

    it(`${count(size(50_000))} bad labels (Ajv copied every error so far for each failing item; the anyOf pruning compared every error with every other)`, { timeout: BUDGET }, () => {
      // Before: 20,000 took 42 s (a 100 KB file); 50,000, minutes.
      const n = size(50_000)
      const { diagnostics } = load(`targets:\n  - id: T1\n    labels: [${Array(n).fill('{name: 1, color: "!"}').join(', ')}]\n`)
      expect(diagnostics).toHaveLength(2 * n)
      expect(diagnostics[0].message).toBe('target T1: labels[0].name must be a string (got an integer; quote it: "1")')
    })
  })
}
