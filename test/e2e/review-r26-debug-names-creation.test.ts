// Review round 26 (--debug as the support engineer reads it): a request whose path does not name
// its resource, a creation's `POST /targets/`, gave a debug line that said nothing of which target
// it was for: an apply creating 40 targets logged 40 alike lines, and the one answered 400 or
// timed out could not be told from the others without a second run. Each line now ends with the
// resource it was for, as errors name it (`for target "https://…/"`); a name holding a weak
// secret of the run (which the output step cannot replace) is shown as (sensitive).
import { describe, expect, it } from 'vitest'
import { apply, emulator, tempdir } from './helpers.js'

const target = (name: string, url: string, extra = '') => `  - site:\n      name: "${name}"\n      url: ${url}\n${extra}`

describe('apply --debug, creating targets', () => {
  it('each POST line names the target it creates', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': 'targets:\n' + target('One', 'https://one-r26.example.com/') + target('Two', 'https://two-r26.example.com/') })
    const run = await apply(em, dir, { debug: true })
    expect(run.code, run.err).toBe(0)
    const posts = run.err.split('\n').filter((line) => line.startsWith('debug: POST '))
    expect(posts).toHaveLength(2)
    expect(posts.some((line) => line.endsWith(' for target "https://one-r26.example.com/"'))).toBe(true)
    expect(posts.some((line) => line.endsWith(' for target "https://two-r26.example.com/"'))).toBe(true)
  })

  it('a URL holding a weak secret of the run is shown as (sensitive)', async () => {
    const em = await emulator()
    const dir = tempdir({ 'targets.yaml': 'targets:\n' + target('Shop', 'https://new-qz7x.example.com/', '      desc: "${SUFFIX}"\n') })
    const run = await apply(em, dir, { debug: true }, { SUFFIX: 'qz7x' })
    expect(run.code, run.err).toBe(0)
    expect(run.err).toMatch(/^debug: POST .* for \(sensitive\)$/m)
    expect(run.out + run.err).not.toContain('qz7x')
  })
})
