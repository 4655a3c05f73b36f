// The CI recipes in examples/ci/ run only commands and flags that exist: each recipe is parsed,
// every `scansync …` / `npx scansync …` command line in its run:/script: steps is extracted, and
// checked against the flags of the built oclif.manifest.json (written by npm run build).
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { parse } from 'yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../../src/emulator/index.js'
import { renderPlan } from '../../src/render/index.js'
import { change, field, plan } from '../render/builders.js'
import { collectOutput, ROOT } from '../helpers/cli.js'
import { copyConfiguration } from '../helpers/emulator.js'

interface ManifestFlag {
  name: string
  type: 'boolean' | 'option'
  char?: string
  options?: string[]
  required?: boolean
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags: Record<string, ManifestFlag> }> }

const CI_DIR = join(ROOT, 'examples', 'ci')
const RECIPES = readdirSync(CI_DIR, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => relative(ROOT, join(CI_DIR, name)))
  .sort()

/** The shell scripts of a recipe: `run:` of GitHub Actions steps, `script:`-like keys of GitLab jobs. */
function shellScripts(recipe: unknown): string[] {
  const scripts: string[] = []
  const visit = (node: unknown, key?: string) => {
    if (Array.isArray(node)) {
      if (key !== undefined && /^(before_|after_)?script$/.test(key)) scripts.push(...node.filter((item): item is string => typeof item === 'string'))
      else node.forEach((item) => visit(item))
    } else if (node !== null && typeof node === 'object') {
      for (const [k, value] of Object.entries(node)) visit(value, k)
    } else if (typeof node === 'string' && key !== undefined && (key === 'run' || /^(before_|after_)?script$/.test(key))) {
      scripts.push(node)
    }
  }
  visit(recipe)
  return scripts
}

const OPERATORS = new Set(['&&', '||', '|', ';', '(', ')', '{', '}', '$(', '`', ';;'])
const REDIRECTION = /^(\d*>>?|\d*<|&>)(.*)$/
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', 'time', 'exec', 'command'])

/** Splits one line of shell into words and operators (quotes kept out of the words; enough for recipes). */
function tokenize(text: string): string[] {
  const tokens: string[] = []
  let word = ''
  let inWord = false
  const end = () => {
    if (inWord) tokens.push(word)
    word = ''
    inWord = false
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "'") {
      const close = text.indexOf("'", i + 1)
      word += text.slice(i + 1, close === -1 ? text.length : close)
      inWord = true
      i = close === -1 ? text.length : close
    } else if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      word += text.slice(i + 1, j)
      inWord = true
      i = j
    } else if (c === '#' && !inWord) {
      break
    } else if (/\s/.test(c)) {
      end()
    } else if (c === '$' && text[i + 1] === '(') {
      end()
      tokens.push('$(')
      i++
    } else if ('&|;(){}`'.includes(c)) {
      const two = text.slice(i, i + 2)
      if (c === '&' && text[i + 1] === '>') {
        word += c
        inWord = true
        continue
      }
      if (inWord && c === '&' && /\d>$/.test(word)) {
        word += c
        continue
      }
      end()
      if (two === '&&' || two === '||' || two === ';;') {
        tokens.push(two)
        i++
      } else tokens.push(c)
    } else {
      word += c
      inWord = true
    }
  }
  end()
  return tokens
}

interface Invocation {
  line: string
  args: string[]
}

/** Every scansync invocation in a script: at the start of a simple command, after VAR=value words. */
export function scansyncInvocations(script: string): Invocation[] {
  const found: Invocation[] = []
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const tokens = tokenize(line)
    let segment: string[] = []
    const flush = () => {
      let words = segment
      segment = []
      // Redirections and their targets are not arguments.
      const args: string[] = []
      for (let i = 0; i < words.length; i++) {
        const redirect = REDIRECTION.exec(words[i])
        if (redirect && !words[i].startsWith('-')) {
          if (redirect[2] === '' && !/&\d$/.test(words[i])) i++
          continue
        }
        args.push(words[i])
      }
      words = args
      while (words.length > 0 && (KEYWORDS.has(words[0]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]))) words = words.slice(1)
      if (words[0] === 'npx') {
        words = words.slice(1)
        while (words[0] === '--yes' || words[0] === '-y' || words[0] === '--no' || words[0] === '--no-install') words = words.slice(1)
        if (words[0] !== 'scansync') return
      }
      if (words[0] === 'scansync') found.push({ line: line.trim(), args: words.slice(1) })
    }
    for (const token of tokens) {
      if (OPERATORS.has(token)) flush()
      else segment.push(token)
    }
    flush()
  }
  return found
}

/** What is wrong with one invocation, judged by the manifest; empty when nothing is. */
export function problemsOf(invocation: Invocation): string[] {
  const [id, ...rest] = invocation.args
  const command = id === undefined ? undefined : manifest.commands[id]
  if (!command) return [`unknown command ${JSON.stringify(id)}`]
  const problems: string[] = []
  const byChar = new Map(Object.values(command.flags).filter((f) => f.char).map((f) => [f.char!, f]))
  const seen = new Set<string>()
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]
    if (!word.startsWith('-') || word === '-') continue
    const long = word.startsWith('--')
    const [name, inline] = long ? [word.slice(2).split('=')[0], word.includes('=') ? word.slice(word.indexOf('=') + 1) : undefined] : [word.slice(1), undefined]
    const flag = long ? command.flags[name] : byChar.get(name)
    if (!flag) {
      problems.push(`${id}: unknown flag ${word}`)
      continue
    }
    seen.add(flag.name)
    if (flag.type === 'boolean') {
      if (inline !== undefined) problems.push(`${id}: --${flag.name} takes no value`)
      continue
    }
    const value = inline ?? rest[++i]
    if (value === undefined || (inline === undefined && value.startsWith('-'))) problems.push(`${id}: --${flag.name} needs a value`)
    else if (flag.options && !value.includes('$') && !flag.options.includes(value)) problems.push(`${id}: --${flag.name} ${value}: expected one of ${flag.options.join(', ')}`)
  }
  for (const flag of Object.values(command.flags)) if (flag.required && !seen.has(flag.name)) problems.push(`${id}: --${flag.name} is required`)
  return problems
}

const invocationsOf = (file: string) => shellScripts(parse(readFileSync(join(ROOT, file), 'utf8'))).flatMap(scansyncInvocations)
const hasFlags = (invocations: Invocation[], id: string, ...flags: string[]) =>
  invocations.some((inv) => inv.args[0] === id && flags.every((flag) => inv.args.some((arg) => arg === flag || arg.startsWith(`${flag}=`))))
const textOf = (file: string) => readFileSync(join(ROOT, file), 'utf8')

describe('the command-line extractor', () => {
  it('finds scansync after npx, env assignments, keywords and operators, and drops redirections', () => {
    const script = [
      'set +e',
      'npx scansync plan config --detailed-exitcode --format markdown > plan.md 2> errors.txt',
      'if npx --yes scansync validate config 2>&1; then exit 0; fi',
      'X=1 scansync drift config --format=github | tee drift.txt && echo ok',
      '  2) npx scansync plan config --format github ;;   # comment with scansync apply --nope',
      'code=0; npx scansync apply --plan scansync.plan.json --auto-approve || code=$?',
      "echo 'scansync plan is quoted text'",
      'npx scansync import \\',
      '  --kind target --all',
    ].join('\n')
    expect(scansyncInvocations(script).map((inv) => inv.args)).toEqual([
      ['plan', 'config', '--detailed-exitcode', '--format', 'markdown'],
      ['validate', 'config'],
      ['drift', 'config', '--format=github'],
      ['plan', 'config', '--format', 'github'],
      ['apply', '--plan', 'scansync.plan.json', '--auto-approve'],
      ['import', '--kind', 'target', '--all'],
    ])
  })

  it('reports unknown commands, unknown flags, bad values, missing values and missing required flags', () => {
    const problems = (args: string[]) => problemsOf({ line: args.join(' '), args })
    expect(problems(['plan', 'config', '--format', 'github', '--detailed-exitcode'])).toEqual([])
    expect(problems(['pland'])).toEqual(['unknown command "pland"'])
    expect(problems(['drift', '--detailed-exitcode'])).toEqual(['drift: unknown flag --detailed-exitcode'])
    expect(problems(['plan', '--format', 'html'])).toEqual(['plan: --format html: expected one of text, json, markdown, github'])
    expect(problems(['plan', '--out'])).toEqual(['plan: --out needs a value'])
    expect(problems(['apply', '--auto-approve=yes'])).toEqual(['apply: --auto-approve takes no value'])
    expect(problems(['import', '--all'])).toEqual(['import: --kind is required'])
    expect(problems(['plan', '-f', 'json'])).toEqual([])
  })
})

describe('examples/ci recipes', () => {
  it('there are GitHub Actions workflows and a GitLab CI file', () => {
    expect(RECIPES).toEqual(expect.arrayContaining(['examples/ci/gitlab-ci.yml']))
    expect(RECIPES.filter((file) => file.startsWith('examples/ci/github/')).length).toBeGreaterThanOrEqual(3)
  })

  it.each(RECIPES)('%s: every scansync command exists with the flags it uses', (file) => {
    const invocations = invocationsOf(file)
    expect(invocations.length, `${file} runs scansync`).toBeGreaterThan(0)
    for (const invocation of invocations) expect(problemsOf(invocation), invocation.line).toEqual([])
  })

  it.each(RECIPES)('%s: the token comes from the secret store, never from the file', (file) => {
    const text = textOf(file)
    expect(text).not.toMatch(/SCANSYNC_API_TOKEN:\s*(?!\$\{\{\s*secrets\.)\S/)
    if (file.includes('/github/')) expect(text).toContain('SCANSYNC_API_TOKEN: ${{ secrets.SCANSYNC_API_TOKEN }}')
  })

  it.each([
    ['examples/ci/github/scansync-plan.yml', ['validate', 'plan', 'plan', 'plan']],
    ['examples/ci/github/scansync-apply.yml', ['apply']],
    ['examples/ci/github/scansync-drift.yml', ['drift', 'drift']],
    ['examples/ci/github/scansync-audit.yml', ['audit', 'audit']],
    ['examples/ci/gitlab-ci.yml', ['validate', 'plan', 'plan', 'apply', 'drift']],
  ])('%s runs exactly these commands: %j', (file, commands) => {
    expect(invocationsOf(file).map((inv) => inv.args[0])).toEqual(commands)
  })

  it('GitHub: plan on pull requests with --detailed-exitcode, a Markdown comment and annotations', () => {
    const file = 'examples/ci/github/scansync-plan.yml'
    const recipe = parse(textOf(file))
    expect(Object.keys(recipe.on)).toEqual(['pull_request'])
    const invocations = invocationsOf(file)
    expect(hasFlags(invocations, 'plan', '--detailed-exitcode', '--format')).toBe(true)
    expect(invocations.some((inv) => inv.args[0] === 'plan' && inv.args.includes('markdown'))).toBe(true)
    expect(invocations.some((inv) => inv.args[0] === 'plan' && inv.args.includes('github'))).toBe(true)
    expect(textOf(file)).toContain('actions/github-script')
  })

  it('GitHub: apply on merge to main, one at a time, keeping the state file', () => {
    const file = 'examples/ci/github/scansync-apply.yml'
    const recipe = parse(textOf(file))
    expect(recipe.on.push.branches).toEqual(['main'])
    expect(recipe.concurrency['cancel-in-progress']).toBe(false)
    expect(hasFlags(invocationsOf(file), 'apply', '--auto-approve')).toBe(true)
    expect(textOf(file)).toContain('config/.scansync/state.json')
    // A review of the recipes (fifteenth round): a manual run applied any branch, and a run that
    // waited for another checked out its own commit, without the state that run had committed.
    const job = recipe.jobs.apply
    expect(job.if).toBe("github.ref == 'refs/heads/main'")
    expect(job.steps.find((step: { uses?: string }) => step.uses?.startsWith('actions/checkout')).with.ref).toBe('${{ github.ref }}')
    // A review of the recipes (twenty-fifth round): a push of the state that failed (main moved on
    // with a conflict) lost the records of what the apply had sent, where GitLab's recipe keeps them.
    const artifact = job.steps.find((step: { uses?: string }) => step.uses?.startsWith('actions/upload-artifact'))
    expect(artifact.if).toBe('always()')
    expect(artifact.with.path).toBe('config/.scansync/state.json')
  })

  it('GitHub: the plan comment is not posted from a cancelled run', () => {
    const recipe = parse(textOf('examples/ci/github/scansync-plan.yml'))
    const post = recipe.jobs.plan.steps.find((step: { name?: string }) => step.name === 'Post the plan on the pull request')
    expect(post.if).toContain('!cancelled()')
    expect(post.if).not.toContain('always()')
  })

  it('GitHub: nightly drift with annotations; exit 2 fails the job', () => {
    const file = 'examples/ci/github/scansync-drift.yml'
    const recipe = parse(textOf(file))
    expect(recipe.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/)
    const drift = invocationsOf(file).find((inv) => inv.args[0] === 'drift' && inv.args.includes('github'))
    expect(drift).toBeDefined()
    // The drift step must not swallow the exit code (run against the emulator below: 0, 2 and 1).
    const step = recipe.jobs.drift.steps.find((s: { run?: string }) => s.run?.includes('--format github'))
    expect(step.run).toMatch(/\nexit "\$code"\n$/)
    expect(step['continue-on-error']).toBeUndefined()
  })

  it('GitLab: the same plan, apply (saved plan) and scheduled drift', () => {
    const file = 'examples/ci/gitlab-ci.yml'
    const invocations = invocationsOf(file)
    expect(hasFlags(invocations, 'plan', '--detailed-exitcode', '--format')).toBe(true)
    expect(hasFlags(invocations, 'plan', '--out')).toBe(true)
    expect(hasFlags(invocations, 'apply', '--plan', '--auto-approve')).toBe(true)
    expect(invocations.some((inv) => inv.args[0] === 'drift')).toBe(true)
    const recipe = parse(textOf(file))
    expect(recipe['scansync:drift'].rules[0].if).toContain('schedule')
    // A review of the fifteenth round: plan and apply in one job per merge, from the branch's tip,
    // so that two merges never leave a stale plan and an older pipeline never applies over a newer one.
    const apply = recipe['scansync:apply']
    expect(apply.resource_group).toBe('scansync')
    expect(apply.needs).toBeUndefined()
    expect(apply.script[0]).toContain('git checkout -q --detach FETCH_HEAD')
    expect(apply.script[1]).toMatch(/^npm ci /)
    expect(apply.script.findIndex((line: string) => line.includes('plan config --out'))).toBeLessThan(apply.script.findIndex((line: string) => line.includes('apply --plan')))
    expect(textOf(file)).toContain('config/.scansync/state.json')
  })

  it('the comment heading the recipes look for is the one the Markdown plan starts with', () => {
    const markdown = renderPlan(plan([change('target', 'T1', 'Shop', [field('site.name', 'a', 'b')])]), 'markdown')
    const heading = markdown.split('\n')[0]
    expect(heading).toBe('### scansync plan')
    expect(renderPlan(plan([]), 'markdown').split('\n')[0]).toBe(heading)
    expect(textOf('examples/ci/github/scansync-plan.yml')).toContain(`const heading = '${heading}'`)
    expect(textOf('examples/ci/gitlab-ci.yml')).toContain(`startsWith('${heading}')`)
  })
})

// The GitHub steps' shell scripts, run with bash as Actions runs them (`bash -eo pipefail`),
// against the emulator, with `npx scansync` standing for this checkout's bin/run.js.
describe('the GitHub workflow steps, run against the emulator', () => {
  const TOKEN = 'recipes-Tok3n-0b5e9d27c1'
  const work = mkdtempSync(join(tmpdir(), 'scansync-recipes-'))
  const emulators: Emulator[] = []
  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()))
    rmSync(work, { recursive: true, force: true })
  })
  const shims = join(work, 'bin')
  mkdirSync(shims)
  writeFileSync(join(shims, 'npx'), `#!/bin/sh\n[ "$1" = --no ] && shift\n[ "$1" = scansync ] && shift\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@" $SHIM_EXTRA_ARGS\n`)
  chmodSync(join(shims, 'npx'), 0o755)

  const stepOf = (workflow: string, name: string): string => {
    const recipe = parse(textOf(`examples/ci/github/${workflow}`))
    const job = Object.values(recipe.jobs)[0] as { steps: { name?: string; run?: string }[] }
    const step = job.steps.find((s) => s.name === name)
    if (!step?.run) throw new Error(`no step ${name} in ${workflow}`)
    return step.run
  }

  let count = 0
  async function repository(options: { obfuscate?: boolean } = {}) {
    const emulator = await startEmulator({ token: TOKEN, seed: JSON.parse(readFileSync(join(ROOT, 'examples', 'emulator-seed.json'), 'utf8')), ...options })
    emulators.push(emulator)
    const dir = join(work, `repo-${++count}`)
    copyConfiguration(join(dir, 'config'))
    return { dir, emulator }
  }

  function runStep(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; outputs: string }> {
    const outputs = join(cwd, '.github-output')
    writeFileSync(outputs, '')
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: `${shims}:${process.env.PATH}`, HOME: work, NO_COLOR: '1', GITHUB_OUTPUT: outputs, GITHUB_STEP_SUMMARY: join(cwd, '.summary'), GITHUB_REF_NAME: 'main', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return collectOutput(child).then(({ code, stdout, stderr }) => ({ code, stdout, stderr, outputs: readFileSync(outputs, 'utf8') }))
  }
  const connect = (emulator: Emulator) => ({ SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN })

  it('Plan with changes: the step passes, records exitcode=2, writes plan.md and annotates the changed lines', async () => {
    const { dir, emulator } = await repository()
    const result = await runStep(stepOf('scansync-plan.yml', 'Plan'), dir, connect(emulator))
    expect(result.code, result.stderr).toBe(0)
    expect(result.outputs).toBe('exitcode=2\n')
    const body = readFileSync(join(dir, 'plan.md'), 'utf8')
    expect(body.startsWith('### scansync plan\n')).toBe(true)
    expect(body).toContain('dc-lisbon-agent')
    expect(result.stdout).toMatch(/^::warning file=config\/agents\.yaml,line=\d+,col=\d+,title=scansync plan/m)
    expect(body + result.stdout + result.stderr).not.toContain(TOKEN)
  })

  it('Plan with an error: the step fails and plan.md says why, without the token', async () => {
    const { dir, emulator } = await repository()
    const result = await runStep(stepOf('scansync-plan.yml', 'Plan'), dir, { ...connect(emulator), SCANSYNC_API_TOKEN: 'wrong-token' })
    expect(result.code).toBe(1)
    expect(result.outputs).toBe('exitcode=1\n')
    const body = readFileSync(join(dir, 'plan.md'), 'utf8')
    expect(body).toMatch(/^### scansync plan\n\nThe plan failed; nothing was sent:\n\n```\n.*authentication failed/s)
    expect(body).not.toContain('wrong-token')
  })

  it('Plan with a usage error (which oclif exits 2 for): the step fails instead of reporting changes', async () => {
    const { dir, emulator } = await repository()
    const result = await runStep(stepOf('scansync-plan.yml', 'Plan'), dir, { ...connect(emulator), SHIM_EXTRA_ARGS: '--no-such-flag' })
    expect(result.code).toBe(1)
    expect(result.outputs).toBe('exitcode=1\n')
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toContain('unknown flag --no-such-flag')
  })

  it('GitLab: the merge-request plan script passes with changes and fails on an error or a usage error, with a note saying why', async () => {
    // GitLab runs a job's script items in one shell, one after the other.
    const script = (parse(textOf('examples/ci/gitlab-ci.yml'))['scansync:plan'].script as string[]).join('\n')
    const { dir, emulator } = await repository()
    const changes = await runStep(script, dir, connect(emulator))
    expect(changes.code, changes.stderr).toBe(0)
    expect(readFileSync(join(dir, 'plan.md'), 'utf8').startsWith('### scansync plan\n')).toBe(true)
    expect((await runStep(script, dir, { ...connect(emulator), SCANSYNC_API_TOKEN: 'wrong' })).code).toBe(1)
    // A review of the recipes (fifteenth round): the job stopped before the note, which kept the last push's plan.
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toMatch(/^### scansync plan\n\nThe plan failed; nothing was sent:\n\n```\n.*authentication failed/s)
    expect((await runStep(script, dir, { ...connect(emulator), SHIM_EXTRA_ARGS: '--no-such-flag' })).code).toBe(1)
  })

  // A review of the recipes (fifteenth round): plan.md was replaced by an empty "The plan failed",
  // and nothing in the log or the annotations said which rule.
  it('Plan breaking a policy of level error: the step fails, plan.md is the plan with its violations, and the violation is annotated', async () => {
    const { dir, emulator } = await repository()
    writeFileSync(join(dir, 'config', 'rules.yaml'), 'policies:\n  - name: every-target-labelled-pci\n    kind: target\n    require: {required: [labels], properties: {labels: {contains: {properties: {name: {const: pci}}}}}}\n')
    const result = await runStep(stepOf('scansync-plan.yml', 'Plan'), dir, connect(emulator))
    expect(result.code).toBe(1)
    expect(result.outputs).toBe('exitcode=1\n')
    const body = readFileSync(join(dir, 'plan.md'), 'utf8')
    expect(body).toMatch(/^### scansync plan\n/)
    expect(body).toMatch(/### Policy violations\n\n\*\*\d+ policy violations?: \d+ errors?/)
    expect(result.stdout).toMatch(/^::error file=config\/targets\/[^,]+,line=\d+,col=\d+,title=scansync policy every-target-labelled-pci::/m)
  })

  it('Validate with thousands of errors: plan.md stays under the comment limit and says how many lines it left out', async () => {
    const { dir } = await repository()
    const targets = Array.from({ length: 3_000 }, (_, i) => `  - id: T${i}\n    nme: target-${i}`).join('\n')
    writeFileSync(join(dir, 'config', 'many.yaml'), `targets:\n${targets}\n`)
    const result = await runStep(stepOf('scansync-plan.yml', 'Validate'), dir, {})
    expect(result.code).toBe(1)
    const body = readFileSync(join(dir, 'plan.md'), 'utf8')
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(body).toMatch(/… and \d+ more lines in the job's log\.\n$/)
  })

  it('Validate with a bad file: the step fails with an annotation on the line, and plan.md lists the error', async () => {
    const { dir } = await repository()
    writeFileSync(join(dir, 'config', 'agents.yaml'), 'agents:\n  - id: G1\n    nme: dc-1\n')
    const result = await runStep(stepOf('scansync-plan.yml', 'Validate'), dir, {})
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('::error file=config/agents.yaml,line=3,col=5::agent G1: nme: unknown field; did you mean "name"?\n')
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toContain('config/agents.yaml:3:5: agent G1: nme: unknown field')
  })

  it('Apply, then the state is committed and pushed; the nightly drift is clean, then fails with annotations on a hand edit', async () => {
    const { dir, emulator } = await repository({ obfuscate: true })
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, HOME: work, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }, encoding: 'utf8' })
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(work, `origin-${count}.git`)])
    git('init', '-q', '-b', 'main')
    git('add', 'config')
    git('commit', '-q', '-m', 'config')
    git('remote', 'add', 'origin', join(work, `origin-${count}.git`))
    git('push', '-q', 'origin', 'main')

    const apply = await runStep(stepOf('scansync-apply.yml', 'Apply'), dir, connect(emulator))
    expect(apply.code, apply.stderr).toBe(0)
    expect(apply.stdout).toContain('Apply: 4 applied, 0 failed')
    expect(existsSync(join(dir, 'config', '.scansync', 'state.json'))).toBe(true)

    const keep = await runStep(stepOf('scansync-apply.yml', 'Keep the secrets state in git'), dir, { GIT_AUTHOR_NAME: 't', GIT_COMMITTER_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_EMAIL: 't@t' })
    expect(keep.code, keep.stderr).toBe(0)
    const pushed = execFileSync('git', ['--git-dir', join(work, `origin-${count}.git`), 'show', 'main:config/.scansync/state.json'], { encoding: 'utf8' })
    expect(JSON.parse(pushed).resources).not.toEqual({})
    expect(pushed).not.toMatch(/demo-(login|basic-auth)-password|demo-client-secret/)
    const again = await runStep(stepOf('scansync-apply.yml', 'Keep the secrets state in git'), dir, {})
    expect(again.code).toBe(0)

    const clean = await runStep(stepOf('scansync-drift.yml', 'Drift check'), dir, connect(emulator))
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)

    emulator.mutate('target', '2DZkoZH8WMEM', { site: { name: 'Shop (renamed by hand)' } })
    const drifted = await runStep(stepOf('scansync-drift.yml', 'Drift check'), dir, connect(emulator))
    expect(drifted.code).toBe(2)
    expect(drifted.stdout).toMatch(/^::error file=config\/targets\/shop\.yaml,line=6,col=\d+,title=scansync drift%3A target 2DZkoZH8WMEM/m)
    expect(readFileSync(join(dir, '.summary'), 'utf8')).toMatch(/^### scansync drift\n[\s\S]*Shop \(renamed by hand\)/)
  })

  // The nightly audit (twenty-sixth round): its report went to the summary only from a second run,
  // on failure, so a night with warnings alone left no evidence, and a failure an empty report.
  it('Nightly audit: the report in the summary, violations annotated, exit 2; a failure summarised as such, exit 1', async () => {
    const { dir, emulator } = await repository()
    cpSync(join(ROOT, 'examples', 'policies'), join(dir, 'config', 'policies'), { recursive: true })
    const broken = await runStep(stepOf('scansync-audit.yml', 'Policy audit'), dir, connect(emulator))
    expect(broken.code, broken.stderr).toBe(2)
    expect(broken.stdout).toMatch(/^::error file=config\/targets\/shop\.yaml,line=\d+,col=\d+,title=scansync policy pci-report-type::/m)
    expect(readFileSync(join(dir, '.summary'), 'utf8')).toMatch(/^### scansync audit\n\n\*\*Audit: \d+ live resources checked against \d+ rules; \d+ policy violations/)
    const failed = await runStep(stepOf('scansync-audit.yml', 'Policy audit'), dir, { ...connect(emulator), SCANSYNC_API_TOKEN: 'revoked-token' })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('::error title=scansync audit::the audit failed')
    const summary = readFileSync(join(dir, '.summary'), 'utf8')
    expect(summary).toMatch(/### scansync audit\n\nThe audit failed \(no verdict on the policies\):\n\n```\n.*authentication failed/s)
    expect(summary).not.toContain('revoked-token')
  })

  // A review of the recipes (twenty-sixth round): a nightly job that failed (the service down, a
  // revoked token) left an empty run summary, its second drift run's error swallowed; and with a
  // flaky service the summary, from a second run, could say "No drift" under a failed job.
  it('Nightly drift that fails: exit 1, the summary says it failed and why (not drift), without the token', async () => {
    const { dir, emulator } = await repository()
    const failed = await runStep(stepOf('scansync-drift.yml', 'Drift check'), dir, { ...connect(emulator), SCANSYNC_API_TOKEN: 'revoked-token' })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('::error title=scansync drift::the drift check failed (not drift)')
    const summary = readFileSync(join(dir, '.summary'), 'utf8')
    expect(summary).toMatch(/^### scansync drift\n\nThe drift check failed \(this is not drift\):\n\n```\n.*authentication failed/s)
    expect(summary).not.toContain('revoked-token')
  })
})
