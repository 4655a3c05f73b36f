// `drift --unmanaged --id ID` checks that resource alone, as `--id` does everywhere: the live
// targets and agents no file declares were all listed (and made the exit code 2) whatever the
// ids asked for, and an undeclared live id was refused as "no such resource is declared" though
// --unmanaged is how one looks at those. Now the list keeps the ids asked for, and such an id
// selects its entry. The real CLI against the example account (one undeclared target, one agent).
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

const UNDECLARED_TARGET = '9XcVbN5mQwEr'
const UNDECLARED_AGENT = '2PqRsT6uVwXy'

it('--id of a declared resource: the resources no file declares are not listed', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--id', '2DZkoZH8WMEM', '--format', 'json'])
  const report = JSON.parse(run.stdout) as { changes: Array<{ id: string }>; unmanaged: unknown[] }
  expect(report.changes.map((c) => c.id)).toEqual(['2DZkoZH8WMEM'])
  expect(report.unmanaged).toEqual([])
})

it('--id of a live resource no file declares: that one is listed, alone', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--id', UNDECLARED_TARGET])
  expect(run.code).toBe(2)
  expect(run.stdout).toMatch(new RegExp(`^\\? target ${UNDECLARED_TARGET} `, 'm'))
  expect(run.stdout).not.toContain(UNDECLARED_AGENT)
  expect(run.stdout).toMatch(/0 resources differ from the configuration, 0 in sync, 1 not declared in any file/)
})

it('--id that is neither declared nor live: refused, saying both', async () => {
  const em = await emulator()
  const run = await cli(em, exampleConfig(), ['drift', '.', '--unmanaged', '--id', 'NoSuchId1234'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('--id NoSuchId1234: no such resource is declared, nor is it a live target or agent no file declares')
})
