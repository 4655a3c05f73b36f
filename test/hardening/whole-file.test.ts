// Files scansync writes whole (the secrets state, saved plans, imported YAML): a link a repository
// holds at the file's place, or at its temporary file's, is never written through (a review of the
// twelfth round's release overwrote a file outside the project this way).
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeWholeFile, writeWholeFileSync } from '../../src/core/whole-file.js'

const dir = mkdtempSync(join(tmpdir(), 'scansync-whole-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each([
  ['async', writeWholeFile],
  ['sync', async (path: string, text: string, mode?: number) => writeWholeFileSync(path, text, mode)],
])('writing a file whole (%s)', (name, write) => {
  it('a link at the temporary file\'s place is not written through; the file is written', async () => {
    const victim = join(dir, `${name}-victim.txt`)
    writeFileSync(victim, 'keep me')
    const file = join(dir, `${name}-state.json`)
    symlinkSync(victim, `${file}.${process.pid}.tmp`)
    await write(file, 'new text', 0o600)
    expect(readFileSync(victim, 'utf8')).toBe('keep me')
    expect(readFileSync(file, 'utf8')).toBe('new text')
    expect(lstatSync(file).isSymbolicLink()).toBe(false)
    expect(lstatSync(file).mode & 0o777).toBe(0o600)
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false)
  })

  // And a review of this round's own change: `--out /dev/stdout` as root replaced the device's link with a file.
  it('a link, a device or a directory at the file\'s place is neither written through nor replaced: an error says so', async () => {
    const victim = join(dir, `${name}-victim2.txt`)
    writeFileSync(victim, 'keep me')
    const file = join(dir, `${name}-plan.json`)
    symlinkSync(victim, file)
    await expect(write(file, 'the plan')).rejects.toThrow(/is a symbolic link: scansync writes its files whole/)
    expect(readFileSync(victim, 'utf8')).toBe('keep me')
    expect(lstatSync(file).isSymbolicLink()).toBe(true)
    await expect(write('/dev/null', 'the plan')).rejects.toThrow(/is not a regular file/)
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true)
    await expect(write(dir, 'the plan')).rejects.toThrow(/is a directory/)
  })
})
