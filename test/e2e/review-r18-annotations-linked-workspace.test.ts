// A self-hosted runner whose work folder sits behind a symbolic link (/home/runner/_work leading to
// a data disk) sets GITHUB_WORKSPACE to the linked path, while the working directory of the step is
// the real path (what the system reports as the current directory). Run from a sub-folder, the
// annotations named the file relative to that sub-folder (file=targets/shop.yaml for
// config/targets/shop.yaml), a file GitHub does not find: the workspace counted as "elsewhere".
// Both the workspace as given and its real path are the repository root.
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const TARGETS = `targets:
  - id: 2DZkoZH8WMEM
    site:
      name: "Shop changed"
`

const annotated = (output: string) => output.split('\n').filter((line) => line.startsWith('::')).map((line) => /^::\w+ file=([^,]*),/.exec(line)?.[1])

describe('GitHub annotations when the workspace is reached through a symbolic link', () => {
  it('name the file relative to the repository root, from a sub-folder and for an absolute path through the link', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const disk = tempdir({ 'repo/config/targets/shop.yaml': TARGETS })
    mkdirSync(join(disk, 'repo', '.git'))
    const linked = join(disk, 'work')
    symlinkSync(join(disk, 'repo'), linked)
    const env = { GITHUB_WORKSPACE: linked }
    const config = join(disk, 'repo', 'config')

    const fromSubfolder = await cli(em, config, ['plan', '.', '--format', 'github'], env)
    expect(fromSubfolder.code).toBe(0)
    expect(annotated(fromSubfolder.stdout)).toEqual(['config/targets/shop.yaml'])

    const linkedPath = await cli(em, config, ['plan', join(linked, 'config'), '--format', 'github'], env)
    expect(annotated(linkedPath.stdout)).toEqual(['config/targets/shop.yaml'])

    // From the real root itself, the names as given (already relative to the root).
    const fromRoot = await cli(em, join(disk, 'repo'), ['plan', 'config', '--format', 'github'], env)
    expect(annotated(fromRoot.stdout)).toEqual(['config/targets/shop.yaml'])
  })
})
