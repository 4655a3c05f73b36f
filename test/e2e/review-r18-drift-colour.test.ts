// drift on a terminal (colours on): the summary line is bold, and the lists of resources gone from
// the service and of those no file declares must still change it. Before, the bold codes around
// it hid it from them: the line said "No drift." without counting the listed resources, and with
// -q that line was all a person saw, while the run exited 2. The real CLI against the emulator.
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig, exampleSeed, tempdir } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const COLOURS = { FORCE_COLOR: '1', NO_COLOR: '' }
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '')

/** The example seed without the staging shop, as if someone deleted it in the web interface. */
function seedWithoutStaging() {
  const seed = exampleSeed()
  seed.targets = seed.targets!.filter((t) => t.id !== '7QwErTy2UiOp')
  return seed
}

describe('drift with colours: the summary line counts the listed resources', () => {
  it('a declared resource gone from the service: not "No drift.", and counted', async () => {
    const em = await emulator({ seed: seedWithoutStaging() })
    const dir = exampleConfig()
    const run = await cli(em, dir, ['drift', '.', '--id', '7QwErTy2UiOp'], COLOURS)
    expect(run.code).toBe(2)
    expect(run.stdout).toContain('\x1b[1m')
    expect(plain(run.stdout)).toMatch(/^! target 7QwErTy2UiOp "Shop \(staging\)"/m)
    expect(plain(run.stdout)).not.toMatch(/No drift\./)
    expect(plain(run.stdout)).toMatch(/^Drift: 0 resources differ from the configuration, 0 in sync, 1 declared by id but gone from the service\.$/m)
    const quiet = await cli(em, dir, ['drift', '.', '--id', '7QwErTy2UiOp', '-q'], COLOURS)
    expect(quiet.code).toBe(2)
    expect(plain(quiet.stdout)).toBe('Drift: 0 resources differ from the configuration, 0 in sync, 1 declared by id but gone from the service.\n')
  })

  it('--unmanaged: not "No drift.", and the resources no file declares counted', async () => {
    const em = await emulator()
    const dir = tempdir({ 'assets.yaml': 'assets:\n  - id: 8YuIoP3lKjHg\n    state: HIDDEN\n' })
    const run = await cli(em, dir, ['drift', '.', '--unmanaged', '-q'], COLOURS)
    expect(run.code).toBe(2)
    expect(plain(run.stdout)).toMatch(/^No declared resource drifted\. Drift: 0 resources differ from the configuration, 1 in sync, \d+ not declared in any file\.\n$/)
  })
})
