import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The floors of src/ (docs: layout.md), top to bottom: a folder imports only folders below it.
 * Type-only imports count too: a type that runs back up a floor is knowledge in the wrong home.
 */
const FLOORS = ['cli', 'apply', 'render', 'import', 'plan', 'live', 'secrets', 'resources', 'config', 'emulator', 'client', 'schema', 'core']

/** The embedded service stands apart: it shares only these with scansync. */
const EMULATOR_MAY_IMPORT = (file: string) => /^(core|schema)\//.test(file) || file === 'client/base-url.ts'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Each file of src/ (relative, with `/`) and the files of src/ it imports, statically, dynamically or for types. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const path of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true)
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(SRC, resolve(dirname(path), name.replace(/\.js$/, '.ts'))).split('\\').join('/'))
    graph.set(relative(SRC, path).split('\\').join('/'), targets)
  }
  return graph
}

const floorOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(src)')

/** Strongly connected groups of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string) => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== file)
      if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe('the floors of src/', () => {
  const graph = importGraph()

  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(50)
    expect(graph.get('cli/run/prepare-plan.ts')).toContain('live/read.ts')
  })

  it('every file sits on a known floor', () => {
    const unknown = [...graph.keys()].filter((file) => !FLOORS.includes(floorOf(file)))
    expect(unknown).toEqual([])
  })

  it('no import runs up a floor (type-only imports included)', () => {
    const upward: string[] = []
    for (const [file, targets] of graph) {
      const floor = FLOORS.indexOf(floorOf(file))
      for (const target of targets) {
        if (FLOORS.indexOf(floorOf(target)) <= floor && floorOf(target) !== floorOf(file)) upward.push(`${file} -> ${target}`)
      }
    }
    expect(upward).toEqual([])
  })

  it('core imports nothing of ours; the emulator only core, schema and client/base-url', () => {
    const strays: string[] = []
    for (const [file, targets] of graph) {
      if (floorOf(file) === 'core') strays.push(...targets.filter((t) => floorOf(t) !== 'core').map((t) => `${file} -> ${t}`))
      if (floorOf(file) === 'emulator') strays.push(...targets.filter((t) => floorOf(t) !== 'emulator' && !EMULATOR_MAY_IMPORT(t)).map((t) => `${file} -> ${t}`))
    }
    expect(strays).toEqual([])
  })

  it('no circle between modules', () => {
    expect(cycles(graph)).toEqual([])
  })

  it('the checks catch a circle and an upward import', () => {
    const bad = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts']],
      ['core/c.ts', []],
    ])
    expect(cycles(bad)).toEqual([['core/a.ts', 'core/b.ts']])
    expect(FLOORS.indexOf(floorOf('cli/run/apply.ts'))).toBeLessThan(FLOORS.indexOf(floorOf('live/read.ts')))
  })
})
