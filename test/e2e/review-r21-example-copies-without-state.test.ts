// Review round 21 (the documentation, run exactly as written): README's quick start against the
// emulator runs `npx scansync apply examples/config` in the clone, which writes
// examples/config/.scansync/state.json (keyed by the emulator's demo token); README's set-up then
// runs `npm test`, whose copies of examples/config took that state along: 29 tests failed with
// "the state was written with another key" and every value of the shop shown as (sensitive).
// The tests' copies of a configuration now leave out what the loader skips (names starting with `.`).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copyConfiguration } from '../helpers/emulator.js'
import { exampleConfig, ROOT, tempdir } from './helpers.js'

const files = (dir: string) => (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((name) => name.endsWith('.yaml')).sort()

describe('a copy of a configuration for a test', () => {
  it("leaves out the secrets state an apply wrote beside it (the quick start's), and keeps every YAML file", () => {
    const applied = tempdir({ 'agents.yaml': 'agents: []\n', 'targets/shop.yaml': 'targets: []\n', '.scansync/state.json': '{"format_version": 1}\n', '.scansync/state.json.lock': '' })
    const copy = join(tempdir(), 'config')
    copyConfiguration(copy, applied)
    expect(files(copy)).toEqual(['agents.yaml', 'targets/shop.yaml'])
    expect(existsSync(join(copy, '.scansync'))).toBe(false)
  })

  it('of examples/config holds its YAML files and no .scansync', () => {
    const copy = exampleConfig()
    expect(files(copy)).toEqual(files(join(ROOT, 'examples', 'config')))
    expect(existsSync(join(copy, '.scansync'))).toBe(false)
  })
})
