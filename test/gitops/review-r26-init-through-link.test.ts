// Review round 26 (the configuration folder as real repositories hold it): `scansync init cfg`
// where cfg/targets.yaml is a symbolic link (to ../shared/targets.yaml, not there yet: a dangling
// link, or there, with --force) wrote the starter file through the link, outside cfg, said "wrote
// cfg/targets.yaml" and "validate cfg # passes as written", and validate cfg then refused the
// link as a file outside the configuration. A link at a starter file's place is now a file that
// exists (refused without --force) and is never written through (refused, nothing written).
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

const layout = (shared?: string) => {
  const dir = tempdir()
  mkdirSync(join(dir, 'cfg'))
  mkdirSync(join(dir, 'shared'))
  if (shared !== undefined) writeFileSync(join(dir, 'shared', 'agents.yaml'), shared)
  symlinkSync(join('..', 'shared', 'agents.yaml'), join(dir, 'cfg', 'agents.yaml'))
  return dir
}

describe('init where a starter file is a symbolic link', () => {
  it('a dangling link is a file that exists: nothing is written, nothing created outside DIR', async () => {
    const dir = layout()
    const { code, stdout, stderr } = await runCli(['init', 'cfg'], { cwd: dir })
    expect([code, stdout]).toEqual([1, ''])
    expect(stderr).toContain(`Error: ${join('cfg', 'agents.yaml')} already exists; nothing was written.`)
    expect(existsSync(join(dir, 'shared', 'agents.yaml'))).toBe(false)
    expect(existsSync(join(dir, 'cfg', 'targets.yaml'))).toBe(false)
  })

  it('with --force, a link is neither written through nor replaced, and nothing is written', async () => {
    for (const shared of [undefined, 'agents: []\n']) {
      const dir = layout(shared)
      const { code, stdout, stderr } = await runCli(['init', 'cfg', '--force'], { cwd: dir })
      expect([code, stdout]).toEqual([1, ''])
      expect(stderr).toContain(`cannot write ${join('cfg', 'agents.yaml')}: it is a symbolic link`)
      expect(stderr).toContain('nothing was written')
      expect(lstatSync(join(dir, 'cfg', 'agents.yaml')).isSymbolicLink()).toBe(true)
      expect(existsSync(join(dir, 'cfg', 'targets.yaml'))).toBe(false)
      if (shared === undefined) expect(existsSync(join(dir, 'shared', 'agents.yaml'))).toBe(false)
      else expect(readFileSync(join(dir, 'shared', 'agents.yaml'), 'utf8')).toBe(shared)
    }
  })

  it('what init says passes does pass', async () => {
    const dir = tempdir()
    const init = await runCli(['init', 'cfg'], { cwd: dir })
    expect(init.code).toBe(0)
    expect(init.stdout).toContain('passes as written')
    expect((await runCli(['validate', 'cfg'], { cwd: dir })).code).toBe(0)
  })
})
