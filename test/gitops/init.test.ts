// scansync init: a starter directory that validates as written, never clobbering a user's files.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { schemaReference } from '../../src/cli/run/init.js'
import { ROOT, runCli } from '../helpers/cli.js'

const created: string[] = []
const tempdir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'scansync-init-'))
  created.push(dir)
  return dir
}
afterAll(() => created.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const KIND_FILES = ['targets.yaml', 'assets.yaml', 'agents.yaml']
const read = (path: string) => readFileSync(path, 'utf8')

describe.concurrent('scansync init', () => {
  it('writes one file per kind, a README and a .gitignore; validate passes with no environment', async () => {
    const cwd = tempdir()
    const init = await runCli(['init', 'config'], { cwd, env: {}, spawn: true })
    expect(init).toMatchObject({ code: 0, stderr: '' })
    for (const name of [...KIND_FILES, 'README.md', '.gitignore']) expect(init.stdout).toContain(`wrote config/${name}`)
    const validate = await runCli(['validate', 'config'], { cwd, env: {} })
    expect(validate).toMatchObject({ code: 0, stderr: '', stdout: 'Valid: 3 files, 1 target, 1 asset, 1 agent.\n' })
  })

  it("says validate passes only when it will: another tool's YAML already there is named in the hint", async () => {
    const clean = await runCli(['init'], { cwd: tempdir(), env: {} })
    expect(clean.stdout).toContain('  npx scansync validate        # passes as written\n')
    const cwd = tempdir()
    writeFileSync(join(cwd, 'docker-compose.yml'), 'services:\n  web:\n    image: nginx\n')
    const next = await runCli(['init'], { cwd, env: {} })
    expect(next.code).toBe(0)
    expect(next.stdout).toContain("  npx scansync validate        # also reads docker-compose.yml, already there (another tool's YAML is an error: give scansync a directory of its own, scansync init DIR)\n")
    expect((await runCli(['validate'], { cwd, env: {} })).code).toBe(1)
  })

  it('starts each file with a yaml-language-server line that points at the package schema', async () => {
    // A repository with scansync as a devDependency (linked here to this clone).
    const cwd = tempdir()
    writeFileSync(join(cwd, 'package.json'), '{}')
    mkdirSync(join(cwd, 'node_modules'))
    symlinkSync(ROOT, join(cwd, 'node_modules', 'scansync'))
    expect((await runCli(['init', 'a/b'], { cwd })).code).toBe(0)
    for (const name of KIND_FILES) {
      const first = read(join(cwd, 'a/b', name)).split('\n')[0]
      const match = /^# yaml-language-server: \$schema=(.+)$/.exec(first)
      expect(match, first).not.toBeNull()
      const schema = isAbsolute(match![1]) ? match![1] : resolve(cwd, 'a/b', match![1])
      expect(read(schema)).toBe(read(join(ROOT, 'schemas', 'config.schema.json')))
    }
  })

  it('writes secrets as ${NAME:-fallback} so that no value is needed to validate', async () => {
    const cwd = tempdir()
    await runCli(['init'], { cwd })
    expect(read(join(cwd, 'targets.yaml'))).toMatch(/password: \$\{[A-Z_]+:-[^}]+\}\n\s+password_is_sensitive: true/)
  })

  it('refuses to replace existing example files without --force, and writes nothing', async () => {
    const cwd = tempdir()
    writeFileSync(join(cwd, 'agents.yaml'), 'agents: []\n')
    const refused = await runCli(['init'], { cwd })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toBe('Error: agents.yaml already exists; nothing was written. Pass --force to replace it, or choose another directory: scansync init DIR\n')
    expect(read(join(cwd, 'agents.yaml'))).toBe('agents: []\n')
    expect(existsSync(join(cwd, 'targets.yaml'))).toBe(false)

    const forced = await runCli(['init', '--force'], { cwd })
    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain('replaced agents.yaml')
    expect(read(join(cwd, 'agents.yaml'))).toContain('REPLACE-WITH-AGENT-ID')
  })

  it('adds to an existing README.md and .gitignore instead of replacing them, once', async () => {
    const cwd = tempdir()
    writeFileSync(join(cwd, 'README.md'), '# Our scans\n\nHand-written.\n')
    writeFileSync(join(cwd, '.gitignore'), 'node_modules/\n')
    await runCli(['init'], { cwd })
    await runCli(['init', '--force'], { cwd })
    const readme = read(join(cwd, 'README.md'))
    expect(readme.startsWith('# Our scans\n\nHand-written.\n\n<!-- scansync -->\n')).toBe(true)
    expect(readme.match(/<!-- scansync -->/g)).toHaveLength(1)
    const gitignore = read(join(cwd, '.gitignore'))
    expect(gitignore.startsWith('node_modules/\n\n')).toBe(true)
    expect(gitignore.match(/\.scansync\/\*\.tmp/g)).toHaveLength(1)
  })

  it('keeps .scansync/state.json in git, as the README recommends', async () => {
    const cwd = tempdir()
    execFileSync('git', ['init', '-q'], { cwd })
    await runCli(['init'], { cwd })
    const ignored = (path: string) => {
      try {
        execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd })
        return true
      } catch {
        return false
      }
    }
    expect(ignored('.scansync/state.json')).toBe(false)
    expect(ignored('.scansync/state.json.123.tmp')).toBe(true)
    expect(ignored('release.plan.json')).toBe(true)
    expect(read(join(cwd, 'README.md'))).toContain('Commit it')
  })

  it('refuses a DIR that is a file (exit 1)', async () => {
    const cwd = tempdir()
    writeFileSync(join(cwd, 'config'), '')
    const result = await runCli(['init', 'config'], { cwd })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Error: config is a file; give a directory')
  })

  it('--quiet prints nothing', async () => {
    const cwd = tempdir()
    expect(await runCli(['init', '-q'], { cwd })).toMatchObject({ code: 0, stdout: '', stderr: '' })
  })
})

describe('schemaReference', () => {
  const schema = (root: string) => join(root, 'node_modules', 'scansync', 'schemas', 'config.schema.json')

  it('is relative when scansync is installed in the same project', () => {
    const root = tempdir()
    writeFileSync(join(root, 'package.json'), '{}')
    mkdirSync(join(root, 'config', 'prod'), { recursive: true })
    expect(schemaReference(join(root, 'config', 'prod'), schema(root))).toBe('../../node_modules/scansync/schemas/config.schema.json')
    expect(schemaReference(root, schema(root))).toBe('./node_modules/scansync/schemas/config.schema.json')
  })

  // Issue 17: an absolute path (a global install, `npm link`) or one leaving the repository is
  // machine-specific: the project's own node_modules copy is used, else no path at all.
  it('is never absolute nor outside the project when the schema lies elsewhere (a global install, npm link)', () => {
    const project = tempdir()
    execFileSync('git', ['init', '-q'], { cwd: project })
    const elsewhere = schema(tempdir())
    expect(schemaReference(project, elsewhere)).toBeUndefined()
    mkdirSync(join(project, 'node_modules', 'scansync', 'schemas'), { recursive: true })
    writeFileSync(schema(project), '{}')
    mkdirSync(join(project, 'config'))
    expect(schemaReference(join(project, 'config'), elsewhere)).toBe('../node_modules/scansync/schemas/config.schema.json')
  })

  it('is relative inside a clone of scansync', () => {
    expect(schemaReference(join(ROOT, 'examples', 'config'))).toBe('../../schemas/config.schema.json')
  })
})
