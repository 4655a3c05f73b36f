// plan, apply and import draw a progress bar on a terminal (stderr a TTY, more than 36 resources),
// redrawn in place and erased when done. The bar went back to the start of its line with a carriage
// return, which the output step (core/redaction.ts) escapes as it escapes every control character
// the service could send: on a terminal the bar printed as one ever-growing line,
// `\u000dReading [░░░…] 0/60\u000dReading [░░░…] 0/60…`, and the summary after it started
// mid-line. The bar now moves with the cursor sequences the output step keeps as scansync's own.
import { describe, expect, it } from 'vitest'
import { captureIo, emulator, envFor, exampleSeed, tempdir } from './helpers.js'
import { runPlan } from '../../src/cli/run/plan.js'
import { withRedaction } from '../../src/core/io.js'
import { startProgress } from '../../src/cli/progress.js'

const AGENTS = 40

function seedWithAgents() {
  const seed = exampleSeed()
  const agent = seed.agents![0]!
  seed.targets = []
  seed.assets = []
  seed.agents = Array.from({ length: AGENTS }, (_, i) => ({ ...agent, id: `Ag${String(i).padStart(10, '0')}`, name: `agent-${i}` }))
  return seed
}

const config = () => 'agents:\n' + Array.from({ length: AGENTS }, (_, i) => `  - id: Ag${String(i).padStart(10, '0')}\n    name: agent-renamed-${i}\n`).join('')

describe('the progress bar on a terminal', () => {
  it('is redrawn in place through the output step: no escaped carriage return', async () => {
    const io = withRedaction(captureIo({ env: {} }))
    const terminal = io.stderr as { isTTY?: boolean }
    terminal.isTTY = true
    const progress = await startProgress(io.stderr, 100, 'Applying', { env: {} })
    progress.tick(50)
    progress.stop()
    const written = (io as unknown as { err(): string }).err()
    expect(written).not.toContain('\\u000d')
    expect(written).not.toContain('\\u001b')
    // Erased when done: nothing but the bar's own frames before the erase.
    expect(written.endsWith('\u001b[2K')).toBe(true)
  })

  it('plan of 40 agents on a terminal: the bar leaves nothing behind on stderr', { timeout: 60_000 }, async () => {
    const em = await emulator({ seed: seedWithAgents() })
    const dir = tempdir({ 'agents.yaml': config() })
    const io = captureIo({ env: envFor(em), cwd: dir })
    io.stderr.isTTY = true
    const code = await runPlan({ mode: 'plan', paths: ['.'], format: 'text', quiet: true }, io)
    expect(code).toBe(0)
    expect(io.out()).toBe(`Plan: ${AGENTS} to change, 0 unchanged.\n`)
    const err = io.err()
    expect(err).not.toContain('\\u000d')
    expect(err).toContain('Reading [')
    // Each frame starts at the line's first column; the last sequence erases the line.
    // eslint-disable-next-line no-control-regex
    const frames = err.split(/\u001b\[G/).filter(Boolean)
    expect(frames.at(-1)).toBe('\u001b[2K')
    for (const frame of frames.slice(0, -1)) expect(frame).toMatch(new RegExp(`^Reading \\[[█░]{30}\\] \\d+/${AGENTS}$`))
  })
})
