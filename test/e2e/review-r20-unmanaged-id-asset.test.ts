// `drift --unmanaged --id ID` accepts the id of a live target or agent no file declares. The id
// of a live asset no file declares (assets are not listed by --unmanaged) was refused as "no such
// resource is declared or live": the asset is live, and a reviewer would look for a typo in an id
// that is right. The refusal now says what --unmanaged looks among.
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { cli, emulator, exampleConfig } from './helpers.js'

beforeAll(ensureBuilt, 120_000)

/** A live asset of the example account that examples/config does not declare. */
const UNDECLARED_ASSET = '6WsXdC2rFvTg'

it('--id of a live asset no file declares: refused without saying it is not live', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  expect(em.get('asset', UNDECLARED_ASSET)).toBeDefined()
  const run = await cli(em, dir, ['drift', '.', '--unmanaged', '--id', UNDECLARED_ASSET])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain(`--id ${UNDECLARED_ASSET}: no such resource is declared, nor is it a live target or agent no file declares`)
  expect(run.stderr).not.toContain('or live')
})

it('with --kind, among the kinds asked for', async () => {
  const em = await emulator()
  const run = await cli(em, exampleConfig(), ['drift', '.', '--unmanaged', '--kind', 'agent', '--id', '9XcVbN5mQwEr'])
  expect(run.code).toBe(1)
  expect(run.stderr).toContain('--id 9XcVbN5mQwEr: no such resource is declared among the kinds agent, nor is it a live agent no file declares')
})
