// Review round 26 (a newcomer's first hour): the README's shell completion said "in a repository
// with it as a devDependency, use `npx scansync completion bash`". Sourced so (in ~/.bashrc, where
// npx, run from the home directory, finds no scansync to run), the script completes the command
// word `scansync`, which is not on the PATH there, and `npx scansync pl<Tab>` offered nothing.
// Now the README writes the script once from the repository and calls scansync through an alias,
// whose word the script completes: these lines, run as written in bash, complete `scansync pl`.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { ROOT, runCli, tempdir } from '../e2e/helpers.js'

beforeAll(ensureBuilt, 120_000)

const section = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n## Shell completion\n')[1]!.split('\n## ')[0]!

it('does not tell a devDependency user to source `npx scansync completion` (it completes a word they do not type)', () => {
  expect(section).not.toMatch(/use\s+`npx scansync completion bash`\)/)
  expect(section).not.toMatch(/source <\(npx /)
})

it("the README's devDependency lines, run in bash, make `scansync pl<Tab>` complete to plan through the alias", async () => {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const devDependency = blocks.find((block) => block.includes('npx scansync completion bash >'))
  expect(devDependency, 'a block for a repository with scansync as a devDependency').toBeDefined()
  const home = tempdir()
  // The script as `npx scansync completion bash` writes it, where the README writes it (~ is HOME).
  const script = await runCli(['completion', 'bash'])
  expect(script.code).toBe(0)
  const target = /completion bash > (\S+)/.exec(devDependency!)![1]!.replace(/^~\//, '')
  writeFileSync(join(home, target), script.stdout)
  // The rc lines (all but the one that writes the file), then what bash does on Tab after the alias' word.
  const rc = devDependency!.split('\n').filter((l) => l.trim() !== '' && !l.includes('completion bash >')).join('\n')
  const program = `shopt -s expand_aliases
${rc}
alias scansync
fn=$(complete -p scansync | sed 's/.* -F \\([^ ]*\\) .*/\\1/')
COMP_WORDS=(scansync pl); COMP_CWORD=1
"$fn"
printf '%s\\n' "\${COMPREPLY[@]}"`
  const out = execFileSync('bash', ['-c', program], { env: { PATH: process.env.PATH, HOME: home }, cwd: home, encoding: 'utf8' })
  expect(out).toContain("alias scansync='npx scansync'")
  expect(out.trim().split('\n').at(-1)).toBe('plan')
})

// Review round 26 (the day's tests and docs): the README said "zsh likewise" for these lines. zsh
// completes an alias as the command it stands for (`npx`) unless `complete_aliases` is set, so
// `scansync pl<Tab>` offered nothing there (checked by hand in zsh 5.9: nothing; with the option,
// `plan`). The zsh lines the README now shows set it before the alias.
it("the README's zsh lines for a devDependency set complete_aliases before the alias, so that zsh completes its word", () => {
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const zsh = blocks.find((block) => block.includes('npx scansync completion zsh >'))
  expect(zsh, 'a block for zsh in a repository with scansync as a devDependency').toBeDefined()
  const lines = zsh!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim())
  const script = /completion zsh > (\S+)/.exec(zsh!)![1]!
  expect(lines).toContain(`source ${script}`)
  expect(lines.indexOf('setopt complete_aliases')).toBeGreaterThan(-1)
  expect(lines.indexOf('setopt complete_aliases')).toBeLessThan(lines.indexOf("alias scansync='npx scansync'"))
  expect(section).not.toMatch(/zsh likewise, with `completion zsh` and `~\/\.zshrc`\.\)/)
})
