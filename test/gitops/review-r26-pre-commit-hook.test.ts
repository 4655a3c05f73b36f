// Review round 26 (validate in pre-commit hooks, one file at a time): teams run `scansync validate`
// from a pre-commit hook (pre-commit, husky + lint-staged) that passes only the changed files. The
// README said nothing of it: not how to write the hook, nor that what takes the other files (the
// same id declared in a file not given, a label colour given there, a rule name used there) is
// left to a run on the whole configuration, so a hook that passed was read as "the configuration is
// valid". The README now has the hook, and this test runs it as pre-commit would and checks what it
// says a hook catches and leaves to the full run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

beforeAll(ensureBuilt, 120_000)

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const section = /^## Validate in a pre-commit hook\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''

/** The README's `.pre-commit-config.yaml` hook: its entry's scansync arguments and its `files` pattern. */
function hook(): { args: string[]; files: RegExp } {
  const block = /```yaml\n(# \.pre-commit-config\.yaml\n[\s\S]*?)```/.exec(section)?.[1]
  expect(block, 'the README shows a .pre-commit-config.yaml').toBeDefined()
  const { repos } = parse(block!) as { repos: Array<{ hooks: Array<{ entry: string; files: string; language: string }> }> }
  const [{ entry, files, language }] = repos[0].hooks
  expect(language).toBe('system')
  const words = entry.split(' ')
  expect(words.slice(0, 3)).toEqual(['npx', '--no', 'scansync'])
  return { args: words.slice(3), files: new RegExp(files) }
}

const FILES = {
  'config/targets/shop.yaml': 'targets:\n  - id: T1\n    labels: [{name: pci, color: "#d93f0b"}]\n    scanning_agent: {name: dc-lisbon-agent}\n',
  'config/targets/copy.yaml': 'targets:\n  - id: T1\n    labels: [{name: pci, color: "#000000"}]\n',
  'config/agents.yaml': 'agents:\n  - name: dc-lisbon-agent\n',
  'config/policies/rules.yaml': 'policies:\n  - name: has-label\n    kind: target\n    require: {required: [labels]}\n',
  'docker-compose.yml': 'services:\n  web: {image: nginx}\n',
}

describe('the pre-commit hook the README shows', () => {
  it('passes the changed configuration files alone, and says what they hold wrong', async () => {
    const { args, files } = hook()
    const dir = tempdir(FILES)
    // pre-commit passes the staged files its `files` pattern matches.
    const staged = ['config/targets/shop.yaml', 'config/agents.yaml', 'config/policies/rules.yaml', 'docker-compose.yml', 'README.md'].filter((file) => files.test(file))
    expect(staged).toEqual(['config/targets/shop.yaml', 'config/agents.yaml', 'config/policies/rules.yaml'])
    const ok = await runCli(['validate', ...args.slice(1), ...staged], { cwd: dir })
    expect(ok.stdout + ok.stderr).toBe('')
    expect(ok.code).toBe(0)

    // An error in a changed file: on stderr, named from the current directory (lint-staged passes absolute paths).
    const broken = tempdir({ ...FILES, 'config/agents.yaml': 'agents:\n  - name: dc-lisbon-agent\n    temas: []\n' })
    const bad = await runCli(['validate', ...args.slice(1), join(broken, 'config/agents.yaml')], { cwd: broken })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^config\/agents\.yaml:3:5: /m)
  })

  it('leaves what takes the other files to a run on the whole configuration, as the README says', async () => {
    const dir = tempdir(FILES)
    const whole = await runCli(['validate', '-q', 'config'], { cwd: dir })
    expect(whole.code).toBe(1)
    expect(whole.stderr).toContain('target T1 is declared twice')
    expect(whole.stderr).toContain('the label "pci" is declared with the colour')
    expect(section).toContain('the same `id` (or, without one, the same\n`site.url` or agent `name`) declared in a file not given')
    expect(section).toContain('a label or owner name given another\ncolour there')
    expect(section).toContain('entry: npx --no scansync validate -q config')
  })
})
