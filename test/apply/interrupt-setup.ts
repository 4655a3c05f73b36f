// The set-up the in-process interrupt tests of round 22 share: an apply of two targets' secrets,
// run in-process, waited on until one write has landed and the other is held by the service (in
// flight when the interrupt comes). The interrupt is pressed through Io.onInterrupt.
import { join } from 'node:path'
import { expect } from 'vitest'
import { runApply } from '../../src/cli/run/apply.js'
import type { Emulator } from '../../src/emulator/index.js'
import { captureIo, emulator, envFor, tempdir, writes, type CapturedIo } from '../e2e/helpers.js'

export interface ApplyOneLandedOneHeld {
  em: Emulator
  dir: string
  /** The secrets state's file (.scansync/state.json in `dir`). */
  state: string
  io: CapturedIo
  /** Presses the interrupt the apply listens to. */
  interrupt: () => void
  /** The apply's exit code. */
  running: Promise<number>
}

/**
 * Starts an apply that sends `password` to the targets `landed` and `held` (sites at
 * https://`host`0.example.com/ and https://`host`1.example.com/), and returns once the write to
 * `landed` is answered and taken in, and that to `held` is on the wire (answered only after a minute).
 */
export async function applyOneLandedOneHeld(options: { landed: string; held: string; password: string; host: string }): Promise<ApplyOneLandedOneHeld> {
  const { landed, held, password, host } = options
  const em = await emulator({
    obfuscate: true,
    seed: { targets: [landed, held].map((id, i) => ({ id, site: { name: `old ${i}`, url: `https://${host}${i}.example.com/` } })) },
    // The second write is answered only after a minute: in flight when the interrupt comes.
    faults: [{ type: 'slow', method: 'PATCH', path: `/targets/${held}/`, delayMs: 60_000 }],
  })
  const dir = tempdir({
    'targets.yaml':
      'targets:\n' +
      [landed, held].map((id) => `  - id: ${id}\n    site:\n      has_basic_auth: true\n      basic_auth: {username: scanner, password: "\${PW}", password_is_sensitive: true}\n`).join(''),
  })
  const state = join(dir, '.scansync', 'state.json')
  let handler: (() => void) | undefined
  const io = { ...captureIo({ env: envFor(em, { PW: password, SCANSYNC_TIMEOUT_MS: '120000', SCANSYNC_PROGRESS_MS: '1' }), cwd: dir }), onInterrupt: (h: () => void) => ((handler = h), () => undefined) }
  const running = runApply({ paths: ['.'], format: 'json', autoApprove: true, parallelism: 2 }, io)

  // The first write answered and taken in (the progress line counts it), the other on the wire.
  const isHeld = () => writes(em).some((r) => r.path === `/targets/${held}/`)
  for (let i = 0; !(io.err().includes('Applying: 1 of 2 done') && isHeld()); i++) {
    if (i > 20_000) throw new Error('gave up waiting for the writes')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  expect(writes(em).find((r) => r.path === `/targets/${landed}/`)?.status).toBe(200)

  return { em, dir, state, io, interrupt: () => handler!(), running }
}
