import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe.concurrent('PATH arguments naming one folder twice through a symbolic link', () => {
  const config = () => {
    const dir = tempdir({
      'config/shared/real/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    symlinkSync(join('shared', 'real'), join(dir, 'config', 'linked'))
    symlinkSync('config', join(dir, 'cfglink'))
    return dir
  }

  for (const paths of [['config', 'config/linked'], ['config', 'cfglink'], ['config/linked', 'config/shared']]) {
    it(`validate ${paths.join(' ')} reads each file once, with no "no configuration files" error`, async () => {
      const { code, stdout, stderr } = await runCli(['validate', ...paths], { cwd: config() })
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain('1 agent')
    })
  }
})

describe.concurrent('a symbolic link from one PATH argument into another', () => {
  const layout = () => {
    const dir = tempdir({
      'config/common/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/prod/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    symlinkSync(join('..', 'common'), join(dir, 'config', 'prod', 'common'))
    symlinkSync(join('..', 'common', 'agents.yaml'), join(dir, 'config', 'prod', 'agents.yaml'))
    return dir
  }

  it('stays inside the configuration: each file read once, under its own name', async () => {
    for (const paths of [['config/prod', 'config/common'], ['config/common', 'config/prod']]) {
      const { code, stdout, stderr } = await runCli(['validate', ...paths], { cwd: layout() })
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain('Valid: 2 files, 0 targets, 1 asset, 1 agent.')
    }
  })

  it('is still refused when only the folder holding the link is given', async () => {
    const { code, stderr } = await runCli(['validate', 'config/prod'], { cwd: layout() })
    expect(code).toBe(1)
    expect(stderr).toContain('config/prod/common:1:1: a symbolic link to a folder outside config/prod')
  })
})
