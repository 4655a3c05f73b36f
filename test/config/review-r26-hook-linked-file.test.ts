// Review round 26 (validate in pre-commit hooks, one file at a time): a hook passes the files a
// commit changes. When it changed a shared file and the link to it (config/prod/agents.yaml ->
// ../common/agents.yaml), `validate config/prod/agents.yaml config/common/agents.yaml` refused the
// link as "a symbolic link to a file outside config/prod", though its target is a path given (the
// README: a link to a file outside every path given is refused; one inside is read like it), as
// `validate config/prod config/common` and `validate config` read it. It is now read once, under
// the real file's name; a link to a file no path names is still refused.
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempdir } from '../e2e/helpers.js'
import { runCli } from '../helpers/cli.js'

describe.concurrent('a symbolic link to a file that is itself a PATH given', () => {
  const layout = () => {
    const dir = tempdir({
      'config/common/agents.yaml': 'agents:\n  - id: A1\n    name: one\n',
      'config/prod/assets.yaml': 'assets:\n  - id: S1\n    state: ARCHIVED\n',
    })
    symlinkSync(join('..', 'common', 'agents.yaml'), join(dir, 'config', 'prod', 'agents.yaml'))
    return dir
  }

  for (const paths of [
    ['config/prod/agents.yaml', 'config/common/agents.yaml'],
    ['config/common/agents.yaml', 'config/prod/agents.yaml'],
    ['config/prod', 'config/common/agents.yaml'],
  ]) {
    it(`validate ${paths.join(' ')} reads the file once, as validate config does`, async () => {
      const { code, stdout, stderr } = await runCli(['validate', ...paths], { cwd: layout() })
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain('1 agent.')
    })
  }

  it('is still refused when its target is not given', async () => {
    const { code, stderr } = await runCli(['validate', 'config/prod/agents.yaml'], { cwd: layout() })
    expect(code).toBe(1)
    expect(stderr).toContain('config/prod/agents.yaml:1:1: a symbolic link to a file outside config/prod')
  })
})
