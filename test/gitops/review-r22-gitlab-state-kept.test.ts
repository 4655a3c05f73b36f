// Review round 22 (the CI recipes executed as a runner executes them): the GitLab apply job, run
// without SCANSYNC_PUSH_TOKEN (a project that has not made that token yet, or whose default
// branch takes no pushes from CI), wrote config/.scansync/state.json in the job's checkout and
// threw it away without a word: the job passed, its artifact held the saved plan only (though the
// README says to keep the state as "the apply job's artifact" when it cannot be committed), and
// every later merge-request plan showed the secrets just sent as "not yet tracked" changes.
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { collectOutput, ROOT } from '../helpers/cli.js'
import { copyConfiguration, emulatorWith, temporaryDirectory } from '../helpers/emulator.js'

beforeAll(ensureBuilt, 120_000)

const TOKEN = 'gitlab-Tok3n-5c1e8a2f90'
const emulator = emulatorWith(TOKEN)
const STATE = 'config/.scansync/state.json'
const job = parse(readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8'))['scansync:apply'] as { script: string[]; artifacts: { paths: string[] } }

describe('GitLab apply job without SCANSYNC_PUSH_TOKEN', () => {
  const work = temporaryDirectory('scansync-r22-gitlab-')

  it('keeps the secrets state in its artifacts and says that it was not committed', async () => {
    const em = await emulator({ obfuscate: true })
    // The runner's checkout: a clone of the project, at the default branch.
    const origin = join(work, 'origin.git')
    const seed = join(work, 'seed')
    const ident = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', HOME: work }
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...ident }, encoding: 'utf8' })
    git(work, 'init', '-q', '--bare', '-b', 'main', origin)
    copyConfiguration(join(seed, 'config'))
    git(seed, 'init', '-q', '-b', 'main')
    git(seed, 'add', 'config')
    git(seed, 'commit', '-q', '-m', 'config')
    git(seed, 'push', '-q', origin, 'main')
    const checkout = join(work, 'builds')
    git(work, 'clone', '-q', origin, checkout)

    // `npm ci` stands for installing scansync; `npx scansync` runs this checkout's build.
    const shims = join(work, 'bin')
    mkdirSync(shims)
    writeFileSync(join(shims, 'npm'), '#!/bin/sh\nexit 0\n')
    writeFileSync(join(shims, 'npx'), `#!/bin/sh\n[ "$1" = --no ] && shift\n[ "$1" = scansync ] && shift\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`)
    chmodSync(join(shims, 'npm'), 0o755)
    chmodSync(join(shims, 'npx'), 0o755)

    // GitLab runs a job's script items one after the other in one shell, stopping at the first failure.
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', job.script.join('\n')], {
      cwd: checkout,
      env: {
        PATH: `${shims}:${process.env.PATH}`,
        ...ident,
        NO_COLOR: '1',
        CI: 'true',
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: checkout,
        CI_COMMIT_BRANCH: 'main',
        CI_DEFAULT_BRANCH: 'main',
        CI_SERVER_HOST: '127.0.0.1:1',
        CI_PROJECT_PATH: 'group/config',
        SCANSYNC_API_URL: em.url,
        SCANSYNC_API_TOKEN: TOKEN,
        SCANSYNC_STATE_KEY: 'gitlab-State-Key-4b7d1e9a3c',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run = await collectOutput(child)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Apply: 4 applied, 0 failed')
    expect(existsSync(join(checkout, STATE))).toBe(true)
    // Not committed (no token to push with): the job says so, naming the variable ...
    expect(git(checkout, 'status', '--porcelain', '--', STATE)).not.toBe('')
    expect(run.stdout + run.stderr).toMatch(new RegExp(`SCANSYNC_PUSH_TOKEN is not set: ${STATE.replace(/\./g, '\\.')} was not committed`))
    // ... and the state is kept as the job's artifact, where the README says to restore it from.
    expect(job.artifacts.paths).toContain(STATE)
    expect(run.stdout + run.stderr).not.toContain(TOKEN)
  })
})
