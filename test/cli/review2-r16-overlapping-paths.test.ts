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
