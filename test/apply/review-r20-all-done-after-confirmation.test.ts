// Review round 20 (the contract, sentence by sentence): `apply --format json` prints one JSON
// document on stdout. An apply confirmed on a terminal reads its resources again; when it found
// every change already as planned (made by hand while the question was on the screen), it sent
// nothing and exited 0 with stdout empty in json and markdown (a script reading the report failed
// to parse it) and no outcome line in text and github. It now reports as an apply with nothing to
// do: every resource unchanged.
import { describe, expect, it } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import { validator } from '../../src/schema/validators.js'
import { captureIo, emulator, envFor, tempdir } from '../e2e/helpers.js'

const validatePlan = validator('plan')
const ASSET = '4TrEwQ9aSdFg'
const ASSET_ONLY = `assets:
  - id: ${ASSET}
    state: HIDDEN
`

const writes = (em: Awaited<ReturnType<typeof emulator>>) => em.requests().filter((r) => r.method !== 'GET')

function expectNothingToDo(format: 'json' | 'markdown' | 'github' | 'text', out: string, unchanged: number) {
  if (format === 'json') {
    const doc = JSON.parse(out)
    expect(validatePlan(doc), JSON.stringify(validatePlan.errors)).toBe(true)
    expect(doc.changes).toEqual([])
    expect(doc.summary).toMatchObject({ change: 0, unchanged, applied: 0, failed: 0 })
  } else expect(out).toContain(`No changes. Apply: 0 applied, 0 failed, 0 not applied, ${unchanged} unchanged.`)
}

describe('an apply that finds every change already made when it reads again after the confirmation', () => {
  it.each(['json', 'markdown', 'github', 'text'] as const)('after a confirmation on a terminal (%s): one report, nothing sent, exit 0', async (format) => {
    const em = await emulator()
    const dir = tempdir({ 'config.yaml': ASSET_ONLY })
    const io = captureIo({ env: envFor(em), cwd: dir, tty: true })
    io.prompt = async () => {
      // Someone makes the change by hand while the question is on the screen.
      em.mutate('asset', ASSET, { state: 'HIDDEN' })
      em.clearRequests()
      return 'yes'
    }
    const code = await runApply({ paths: ['.'], format, autoApprove: false }, io)
    expect(code, io.err()).toBe(0)
    expect(io.err()).toContain(`Already as planned, not sent again: asset ${ASSET}`)
    expect(writes(em)).toEqual([])
    expectNothingToDo(format, io.out(), 1)
  })
})
