// Review round 24 (emulator and init as users run them): `scansync init cfg` where cfg/README.md
// is a directory wrote targets.yaml, assets.yaml and agents.yaml, then failed with
// "cannot write into cfg: EISDIR; check that the directory is writable" (exit 1, which the README
// reads as "nothing written"): it did not name the path at fault, nor say the three files were written.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe('init that fails part-way', () => {
  it('names the path it could not write and what it had already written', async () => {
    const dir = tempdir()
    mkdirSync(join(dir, 'cfg', 'README.md'), { recursive: true })
    const { code, stdout, stderr } = await runCli(['init', 'cfg'], { cwd: dir })
    expect([code, stdout]).toEqual([1, ''])
    expect(existsSync(join(dir, 'cfg', 'targets.yaml'))).toBe(true)
    expect(stderr).toContain(`cannot write ${join('cfg', 'README.md')}: it is a directory`)
    expect(stderr).toContain(`already done: wrote ${join('cfg', 'targets.yaml')}, wrote ${join('cfg', 'assets.yaml')}, wrote ${join('cfg', 'agents.yaml')}`)
  })

  it('a failure before any write says nothing was written', async () => {
    const dir = tempdir()
    mkdirSync(join(dir, 'cfg'))
    mkdirSync(join(dir, 'cfg', 'targets.yaml'))
    const { code, stderr } = await runCli(['init', 'cfg', '--force'], { cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toContain(`cannot write ${join('cfg', 'targets.yaml')}: it is a directory; nothing was written`)
  })
})
