import { existsSync, lstatSync, statSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { EXIT } from '../../core/exit-codes.js'
import { type Io, line } from '../../core/io.js'
import { schemaComment } from './schema-reference.js'
import { findConfigFiles } from '../../config/find-files.js'
import { guard } from './errors.js'
import { checkWritable, writeWholeFile } from '../../core/whole-file.js'

export interface InitOptions {
  /** The directory to write into; default the current directory. */
  dir?: string
  /** Overwrite the example files when they exist. */
  force?: boolean
  quiet?: boolean
}

export { schemaReference } from './schema-reference.js'

/** The starter files: one per kind, each valid with no environment variable set. */
export function starterFiles(schemaLine: string): Record<'targets.yaml' | 'assets.yaml' | 'agents.yaml', string> {
  const head = (what: string) =>
    [
      `# ${schemaLine}`,
      `# ${what}`,
      '# Only the fields written here are managed: a field left out is never sent and never',
      '# reported as drift. Every field is listed in the configuration reference (`scansync schema`',
      '# prints the JSON Schema). Replace each REPLACE-WITH-… id with the id the service shows,',
      '# or write these files from the service: `scansync import --kind target,asset,agent --all',
      '# --out <this directory> --force`.',
    ].join('\n')
  return {
    'targets.yaml': `${head('Targets: the web applications and APIs to scan.')}
targets:
  - id: REPLACE-WITH-TARGET-ID
    site:
      name: My web application
      url: https://app.example.com/
      has_basic_auth: true
      basic_auth:
        username: scanner
        # Taken from the environment at run time and never printed. The fallback after ":-"
        # lets \`scansync validate\` pass anywhere; delete ":-change-me" once the variable is
        # set where scansync runs, so that a missing variable is an error instead.
        password: \${APP_BASIC_AUTH_PASSWORD:-change-me}
        password_is_sensitive: true
    labels: [production, {name: pci, color: "#d93f0b"}]   # a bare string is {name: <string>}
    scan_profile: normal
    report_type: owasp_web_2025
    blackout_period: {begin: "22:00", cease: "06:00", weekdays: [1, 2, 3, 4, 5], timezone: UTC, enabled: true}
`,
    'assets.yaml': `${head('Discovered assets: their review state, owners, labels and comment.')}
assets:
  - id: REPLACE-WITH-ASSET-ID
    state: ACTIVE                # NEW, ACTIVE, HIDDEN or ARCHIVED
    owners: [platform-team]      # a bare string is {name: <string>}
    comment: Reviewed; scanned as a target
`,
    'agents.yaml': `${head('Scanning agents: their names and the teams they serve.')}
agents:
  - id: REPLACE-WITH-AGENT-ID
    name: dc-agent
    teams: [REPLACE-WITH-TEAM-ID]   # a bare string is {id: <string>}
`,
  }
}

const README_MARKER = '<!-- scansync -->'

/** The README section for the configuration repository. */
export function readmeSection(): string {
  return `${README_MARKER}
## Working with scansync

The YAML files here declare our scan targets, discovered assets and scanning agents.
scansync compares them with the service and sends the smallest changes that make the service
match. Only fields written in the YAML are managed. From this directory (\`npx scansync\` when
scansync is a dependency of this repository):

\`\`\`sh
scansync validate                 # check the files; no network, no token needed
export SCANSYNC_API_URL=https://…  # the service's base URL
export SCANSYNC_API_TOKEN=…        # an API token (never on the command line)
scansync plan                     # what would change (exit 2 with --detailed-exitcode when something would)
scansync apply                    # plan, confirm, send
scansync drift                    # what someone changed by hand (exit 2 when anything did)
\`\`\`

- **Secrets** are never written here: write \`\${NAME}\` and set the variable \`NAME\` where
  scansync runs (in CI, from the secret store). Values from variables are never printed.
- **\`.scansync/state.json\`** is written by \`scansync apply\`. It holds only HMACs (keyed by
  \`SCANSYNC_STATE_KEY\`, or by the API token when it is not set: set it, the same in every job
  that shares the state) and the obfuscated tokens the service returned, never a value. Commit it: the
  nightly drift check and the next pull request's plan need it to tell whether a hidden secret
  changed on the service.
- **Changes go through pull requests**: CI posts the plan as a comment, applies on merge to the
  main branch and checks for drift every night (recipes to copy: scansync's \`examples/ci/\`, in
  \`node_modules/scansync/examples/ci/\` where scansync is installed).
`
}

const GITIGNORE_LINES = [
  '# scansync: keep .scansync/state.json in git (HMACs and obfuscated tokens only, never a value).',
  '.scansync/*.tmp',
  '# Locks a run holds while it writes the state or creates targets (one left by a killed run must not be committed).',
  '.scansync/*.lock*',
  '# Saved plans (scansync plan --out) are working files.',
  '*.plan.json',
]

interface Written {
  path: string
  how: 'wrote' | 'replaced' | 'appended to' | 'kept'
}

export async function runInit(options: InitOptions, io: Io): Promise<number> {
  const dir = resolve(io.cwd, options.dir ?? '.')
  const shown = (path: string) => relative(io.cwd, path) || '.'
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    line(io.stderr, `Error: ${shown(dir)} is a file; give a directory to write the starter configuration into (or leave DIR out for the current one).`)
    return EXIT.error
  }
  const files = starterFiles(schemaComment(dir))
  // A link counts as a file there, even one to nothing (config/targets.yaml -> ../shared/…).
  const present = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined
  const existing = Object.keys(files).filter((name) => present(join(dir, name)))
  if (existing.length > 0 && !options.force) {
    const names = existing.map((name) => shown(join(dir, name))).join(', ')
    line(io.stderr, `Error: ${names} already ${existing.length === 1 ? 'exists' : 'exist'}; nothing was written. Pass --force to replace ${existing.length === 1 ? 'it' : 'them'}, or choose another directory: scansync init DIR`)
    return EXIT.error
  }

  const written: Written[] = []
  // The path being written when a write fails: named in the error, with what was written before it.
  let at = dir
  try {
    // Replaced whole, never written through a link (which would put the file outside DIR, where
    // validate refuses the link) nor over a folder: each place checked before the first write.
    for (const name of existing) await checkWritable((at = join(dir, name)))
    await mkdir(dir, { recursive: true })
    for (const [name, text] of Object.entries(files)) {
      const path = (at = join(dir, name))
      const how = present(path) ? 'replaced' : 'wrote'
      await writeWholeFile(path, text)
      written.push({ path, how })
    }
    written.push(await mergeText((at = join(dir, 'README.md')), (current) => {
      if (current === undefined) return `# Scan configuration\n\n${readmeSection()}`
      if (current.includes(README_MARKER)) return undefined
      return `${current.replace(/\n*$/, '\n\n')}${readmeSection()}`
    }))
    written.push(await mergeText((at = join(dir, '.gitignore')), (current) => {
      const have = new Set((current ?? '').split(/\r?\n/))
      const missing = GITIGNORE_LINES.filter((entry) => !have.has(entry))
      if (missing.length === 0) return undefined
      return `${current === undefined || current === '' ? '' : current.replace(/\n*$/, '\n\n')}${missing.join('\n')}\n`
    }))
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    const done = written.filter((w) => w.how !== 'kept').map((w) => `${w.how} ${shown(w.path)}`)
    const special = e.code === 'ENOTREGULAR' ? lstatSync(at, { throwIfNoEntry: false }) : undefined
    const why = special?.isSymbolicLink()
      ? 'it is a symbolic link (init writes its files in DIR itself, never through a link: remove the link, or choose another directory)'
      : e.code === 'EISDIR' || special?.isDirectory() ? 'it is a directory' : special ? 'it is not a regular file' : e.code === 'ENOTDIR' ? 'a part of the path is a file' : (e.code ?? e.message)
    line(io.stderr, `Error: cannot write ${shown(at)}: ${why}; ${done.length === 0 ? 'nothing was written' : `already done: ${done.join(', ')}`}.${special ? '' : ' Check that the directory is writable.'}`)
    return EXIT.error
  }

  // What was written, said on stdout: an error there (a full disk: core/io.ts wholeWrites) in one line.
  return guard(io, {}, async () => {
    if (!options.quiet) {
      for (const { path, how } of written) line(io.stdout, `${how} ${shown(path)}`)
      const target = shown(dir)
      const where = target === '.' ? '' : ` ${target}`
      line(io.stdout)
      line(io.stdout, 'Next:')
      // npx finds scansync whether it is a devDependency of this repository or on the PATH.
      const others = await otherYaml(dir, written.map((w) => w.path), io.cwd)
      line(
        io.stdout,
        others.length === 0
          ? `  npx scansync validate${where}        # passes as written`
          : `  npx scansync validate${where}        # also reads ${others.slice(0, 3).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''}, already there (another tool's YAML is an error: give scansync a directory of its own, scansync init DIR)`,
      )
      line(io.stdout, '  replace each REPLACE-WITH-… id, or write the files from the service:')
      line(io.stdout, `  npx scansync import --kind target,asset,agent --all --out ${target} --force`)
      line(io.stdout, `  npx scansync plan${where}            # with SCANSYNC_API_URL and SCANSYNC_API_TOKEN set`)
    }
    return EXIT.ok
  })
}

/** The YAML files validate would read in `dir` besides those init wrote, as the user sees them. */
async function otherYaml(dir: string, written: readonly string[], cwd: string): Promise<string[]> {
  const mine = new Set(written.map((path) => resolve(path)))
  const { files } = await findConfigFiles([dir], cwd)
  return files.filter((file) => !mine.has(resolve(cwd, file))).map((file) => relative(cwd, resolve(cwd, file)))
}

/** Applies `change` to a text file (undefined content when it does not exist); undefined keeps it. */
async function mergeText(path: string, change: (current: string | undefined) => string | undefined): Promise<Written> {
  let current: string | undefined
  try {
    current = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const next = change(current)
  if (next === undefined) return { path, how: 'kept' }
  await writeFile(path, next)
  return { path, how: current === undefined ? 'wrote' : 'appended to' }
}
