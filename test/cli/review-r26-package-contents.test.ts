// What `npm pack` ships (package.json "files") is all a user who installs scansync into a
// configuration repository has: the README there links the configuration reference, the CI
// recipes and the example policies, and `init` writes a README that sends them to the recipes.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

/** The paths `npm pack` would put in the tarball (without running the build again). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path)
}

const ships = (files: string[], path: string): boolean => files.includes(path) || files.some((file) => file.startsWith(path.endsWith('/') ? path : `${path}/`))

describe('the package as installed', () => {
  const files = packed()

  it('ships every file or folder the shipped README links to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((link) => !/^[a-z]+:/i.test(link))
    expect(links.length).toBeGreaterThan(0)
    expect(links.filter((link) => !ships(files, link.replace(/^\.\//, '')))).toEqual([])
  })

  it('ships the CI recipes the README that init writes points to', () => {
    for (const recipe of ['examples/ci/README.md', 'examples/ci/gitlab-ci.yml', 'examples/ci/github/scansync-plan.yml', 'examples/ci/github/scansync-apply.yml', 'examples/ci/github/scansync-drift.yml', 'examples/ci/github/scansync-audit.yml'])
      expect(files, recipe).toContain(recipe)
  })

  it('ships the schema the editor line points at, a code cache beside each file it was made of, and no tests or sources', () => {
    expect(files).toContain('schemas/config.schema.json')
    for (const cache of files.filter((file) => file.endsWith('.v8cache'))) expect(files).toContain(cache.slice(0, -'.v8cache'.length))
    expect(files.filter((file) => /^(test|src|scripts|bench)\//.test(file))).toEqual([])
  })
})
