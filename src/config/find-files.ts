import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises'
import { dirname, extname, join, relative, resolve, sep } from 'node:path'
import { Diagnostic, hasLineBreak } from '../core/diagnostics.js'

/** Control characters other than a tab and the line breaks (refused on their own). */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/
const CONTROLS = new RegExp(CONTROL.source, 'g')
const escapeControl = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
const YAML_EXTENSIONS = new Set(['.yaml', '.yml'])
/** Hidden entries (.git, .github, .gitlab-ci.yml, .pre-commit-config.yaml) belong to other tools. */
const isSkippedDirectory = (name: string) => name.startsWith('.') || name === 'node_modules'
const isSkippedFile = (name: string) => name.startsWith('.')

export interface FoundFiles {
  files: string[]
  diagnostics: Diagnostic[]
  /** No PATH was given: the current directory was searched, and may hold other tools' YAML. */
  defaulted: boolean
}

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/**
 * Every *.yaml / *.yml below each path (a path may also name one file), recursively, skipping
 * files and folders whose name starts with "." and node_modules. Sorted, so that runs are
 * deterministic; a path given twice (or inside another) is read once.
 *
 * A symbolic link is followed only when it stays inside the configuration root (the directory
 * walked, or the directory of a file named, or another directory the paths name), or leads to a
 * file the paths name (a hook passing a shared file and the link to it, both changed): a link to /etc/passwd committed as config/x.yaml
 * would otherwise have its lines echoed in diagnostics and PR annotations. It is refused unread.
 * A link to a folder is walked like a folder when it stays inside (each real folder once, so no
 * file is read twice and a link back up is no cycle); one to a folder outside that holds YAML is
 * refused with an error: never skipped in silence, which would leave its resources unmanaged
 * without a word.
 */
export async function findConfigFiles(paths: string[], cwd = process.cwd()): Promise<FoundFiles> {
  const files = new Set<string>()
  const diagnostics: Diagnostic[] = []
  const display = (p: string) => relative(cwd, p) || '.'
  const refuseLink = (link: string, root: string, what = 'file') =>
    diagnostics.push({
      file: display(link), line: 1, column: 1, path: '',
      message: `a symbolic link to a ${what} outside ${display(root)}; it was not read (configuration files must lie inside the configuration directory)`,
    })
  /** Real paths of the folders walked: each once, whichever link or path leads to it. */
  const walked = new Set<string>()
  /** Links to folders met while walking, walked once the folders of their root are. */
  const linked: { link: string; root: string; realRoot: string }[] = []
  /** Each file's real path (a broken link is refused, not listed), and which files are links. */
  const realOf = new Map<string, string | undefined>()
  const links = new Set<string>()
  const addFile = async (file: string, real: string | undefined, isLink: boolean) => {
    const shown = display(file)
    // Every line naming it (an error, a plan's "declared at", a violation, on a CI runner a line
    // starting `::` that the runner takes for a workflow command) would be split in two.
    if (hasLineBreak(shown)) {
      diagnostics.push({ file: shown, line: 1, column: 1, path: '', message: 'the path holds a line break, which would split every line that names it (errors, plans, annotations); it was not read: rename it' })
      return
    }
    // An escape (ESC [8m conceals, ESC [2K erases the line) would reach the terminal wherever it is named.
    const control = CONTROL.exec(shown)
    if (control) {
      diagnostics.push({ file: shown.replace(CONTROLS, escapeControl), line: 1, column: 1, path: '', message: `the path holds a control character (${escapeControl(control[0])}), which a terminal would act on in every line that names it; it was not read: rename it` })
      return
    }
    if (isLink) {
      try {
        real = await realpath(file)
      } catch (error) {
        diagnostics.push({ file: shown, line: 1, column: 1, path: '', message: await brokenLink(file, error) })
        return
      }
      links.add(shown)
    }
    files.add(shown)
    realOf.set(shown, real)
  }

  /**
   * Whether a link stays inside `root` (both real paths). A broken link, or one to a device or a
   * pipe (which the loader refuses unread, as not a regular file), is left to the loader.
   */
  const linkStaysInside = async (link: string, realRoot: string): Promise<boolean> => {
    try {
      const target = await realpath(link)
      return inside(realRoot, target) || inAnotherRoot(target) || !(await stat(target)).isFile()
    } catch {
      return true
    }
  }

  const linkedFolder = async (link: string): Promise<boolean> => {
    try {
      return (await stat(link)).isDirectory()
    } catch {
      return false
    }
  }

  /**
   * Whether a folder outside the configuration holds files the walk would read (names only, no
   * content; links inside it not followed): a link to one is refused with an error, while a link
   * to a folder with no YAML (docs, assets) is no configuration and is passed over. A folder too
   * large to list quickly counts as holding some.
   */
  const holdsYaml = async (dir: string): Promise<boolean> => {
    const pending = [dir]
    let seen = 0
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      let entries
      try {
        entries = await readdir(next, { withFileTypes: true })
      } catch {
        continue
      }
      seen += entries.length
      if (seen > 10_000) return true
      for (const entry of entries) {
        if (entry.isDirectory()) {
          if (!isSkippedDirectory(entry.name)) pending.push(join(next, entry.name))
        } else if (!isSkippedFile(entry.name) && YAML_EXTENSIONS.has(extname(entry.name).toLowerCase())) return true
      }
    }
    return false
  }

  const walk = async (dir: string, root: string, realRoot: string, realDir: string): Promise<void> => {
    if (walked.has(realDir)) return
    walked.add(realDir)
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      diagnostics.push({ file: display(dir), line: 1, column: 1, path: '', message: `cannot read the directory (${code ?? String(error)})` })
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!isSkippedDirectory(entry.name)) await walk(full, root, realRoot, join(realDir, entry.name))
      } else if (entry.isSymbolicLink() && !isSkippedDirectory(entry.name) && (await linkedFolder(full))) {
        // After the folders themselves, so that a file is named by its real place where it has one.
        linked.push({ link: full, root, realRoot })
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !isSkippedFile(entry.name) && YAML_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        if (entry.isSymbolicLink() && !(await linkStaysInside(full, realRoot))) refuseLink(full, root)
        else await addFile(full, join(realDir, entry.name), entry.isSymbolicLink())
      }
    }
  }

  /**
   * The real paths of the folders the paths name: a link from one into another (config/prod/common
   * -> ../common, with both given) stays inside the configuration, read once like any other.
   */
  const roots: string[] = []
  /** The real paths of the files the paths name (not through a link): a link to one leads to a file read anyway. */
  const namedFiles = new Set<string>()
  for (const path of paths.length > 0 ? paths : ['.']) {
    const real = await realpath(resolve(cwd, path)).catch(() => undefined)
    if (real === undefined) continue
    if (await stat(real).then((info) => info.isDirectory(), () => false)) roots.push(real)
    else if (await lstat(resolve(cwd, path)).then((info) => info.isFile(), () => false)) namedFiles.add(real)
  }
  const inAnotherRoot = (target: string) => namedFiles.has(target) || roots.some((root) => inside(root, target))
  /** Links to folders inside another path's folder: walked once every path is, so that a file is named by its real place. */
  const deferred: typeof linked = []
  const followLinks = async (defer: boolean) => {
    for (let next = linked.shift(); next; next = linked.shift()) {
      const target = await realpath(next.link)
      if (inside(next.realRoot, target)) await walk(next.link, next.root, next.realRoot, target)
      else if (inAnotherRoot(target)) {
        if (defer) deferred.push(next)
        else await walk(next.link, next.root, next.realRoot, target)
      } else if (await holdsYaml(target)) refuseLink(next.link, next.root, 'folder')
    }
  }

  const seen = new Set<string>()
  for (const path of paths.length > 0 ? paths : ['.']) {
    const full = resolve(cwd, path)
    if (seen.has(full)) continue
    seen.add(full)
    let info
    try {
      info = await stat(full)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A PATH that is a link (config -> a submodule's folder) is said to be one, as a file in it is.
      const isLink = await lstat(full).then((link) => link.isSymbolicLink(), () => false)
      const message = isLink ? await brokenLink(full, error) : code === 'ENOENT' ? `no such file or directory${unexpandedPattern(path)}` : `cannot read it (${code ?? String(error)})`
      diagnostics.push({ file: path, line: 1, column: 1, path: '', message })
      continue
    }
    if (info.isDirectory()) {
      const before = files.size
      const real = await realpath(full)
      await walk(full, full, real, real)
      await followLinks(true)
      // Only when the directory holds none at all (not when another path named them already,
      // perhaps through a link: config and a link to it, or a linked folder and its real one).
      const readElsewhere = () =>
        [...files].some((file) => inside(full, resolve(cwd, file))) || [...realOf.values()].some((r) => r !== undefined && inside(real, r))
      if (files.size === before && !readElsewhere()) {
        diagnostics.push({
          file: display(full), line: 1, column: 1, path: '',
          message: `no configuration files (*.yaml, *.yml) found in ${display(full)}`,
        })
      }
    } else {
      const root = dirname(full)
      const isLink = (await lstat(full)).isSymbolicLink()
      if (isLink && !(await linkStaysInside(full, await realpath(root)))) refuseLink(full, root)
      else await addFile(full, await realpath(full).catch(() => full), isLink)
    }
  }
  linked.push(...deferred)
  await followLinks(false)
  return { files: readOnce(files, realOf, links), diagnostics, defaulted: paths.length === 0 }
}

/** Why a symbolic link was not read: not "cannot read the file: ENOENT" about a file that ls lists. */
async function brokenLink(link: string, error: unknown): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code
  const target = await readlink(link).catch(() => undefined)
  const what = code === 'ENOENT' ? 'which does not exist (moved, or in a git submodule not checked out?)' : code === 'ELOOP' ? 'which leads back to itself (a loop of symbolic links)' : `which cannot be read (${code ?? String(error)})`
  return `a symbolic link to ${target ?? 'a place'}, ${what}; it was not read`
}

/**
 * The files sorted, each real file once: one that a link names as well as its own name (or two
 * links name) is read under its own name where it has one, else under the first link's. Read
 * twice, every resource in it would be "declared twice".
 */
function readOnce(files: ReadonlySet<string>, realOf: ReadonlyMap<string, string | undefined>, links: ReadonlySet<string>): string[] {
  const sorted = [...files].sort()
  const kept = new Set<string>()
  const reals = new Set<string>()
  for (const pass of [false, true]) {
    for (const file of sorted) {
      if (links.has(file) !== pass) continue
      const real = realOf.get(file)
      if (real !== undefined && reals.has(real)) continue
      kept.add(file)
      if (real !== undefined) reals.add(real)
    }
  }
  return sorted.filter((file) => kept.has(file))
}

/**
 * `'config/*.yaml'` quoted (a CI step's variable in quotes, a Windows shell) reaches scansync as
 * written, a file of that name: said, with what to pass instead, since scansync takes folders.
 */
function unexpandedPattern(path: string): string {
  if (!/[*?[]/.test(path)) return ''
  const folder = dirname(path.replace(/[*?[].*$/s, 'x'))
  return ` (the shell did not expand the pattern: leave it unquoted, or name the folder: scansync finds its YAML files itself${folder === '.' ? '' : `, e.g. ${folder}`})`
}
