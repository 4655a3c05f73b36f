// The secrets state is read from .scansync/ beside the first PATH. A configuration file split into
// a folder, or its paths given in another order, read a state that was not there, and its secrets
// were planned as "not yet tracked" with no word of why: a note now says where the state was left,
// when a state there records resources these files declare.
import { cpSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, EXAMPLE_SECRETS, ROOT, tempdir } from '../e2e/helpers.js'
import { copyConfiguration } from '../helpers/emulator.js'

const NOTE = /Note: there is no secrets state at (\S+) \(the state is read from \.scansync\/ beside the first PATH\), but (\S+) records secrets of resources these files declare/

describe('a secrets state left where this run does not read it', () => {
  it('one folder up (a configuration file split into a folder): named, with what to do; --state takes it and the note goes', async () => {
    const em = await emulator({ obfuscate: true })
    const repo = tempdir()
    copyConfiguration(join(repo, 'config'))
    expect((await cli(em, repo, ['apply', 'config', '--auto-approve', '--state', '.scansync/state.json'], EXAMPLE_SECRETS)).code).toBe(0)

    const moved = await cli(em, repo, ['plan', 'config'], EXAMPLE_SECRETS)
    expect(moved.stderr).toMatch(NOTE)
    expect(NOTE.exec(moved.stderr)!.slice(1)).toEqual([join('config', '.scansync', 'state.json'), join('.scansync', 'state.json')])
    expect(moved.stderr).toContain('pass --state .scansync/state.json')
    expect(moved.stdout).toContain('not yet tracked')

    const given = await cli(em, repo, ['plan', 'config', '--state', '.scansync/state.json', '--detailed-exitcode'], EXAMPLE_SECRETS)
    expect(given.stderr).not.toMatch(NOTE)
    expect(given.code).toBe(0)
  })

  it('beside another PATH (the paths given in another order)', async () => {
    const em = await emulator({ obfuscate: true })
    const repo = tempdir()
    copyConfiguration(join(repo, 'config'))
    mkdirSync(join(repo, 'agents'))
    renameSync(join(repo, 'config', 'agents.yaml'), join(repo, 'agents', 'agents.yaml'))
    expect((await cli(em, repo, ['apply', 'config', 'agents', '--auto-approve'], EXAMPLE_SECRETS)).code).toBe(0)

    const reordered = await cli(em, repo, ['plan', 'agents', 'config'], EXAMPLE_SECRETS)
    expect(NOTE.exec(reordered.stderr)?.slice(1)).toEqual([join('agents', '.scansync', 'state.json'), join('config', '.scansync', 'state.json')])
    expect((await cli(em, repo, ['plan', 'config', 'agents'], EXAMPLE_SECRETS)).stderr).not.toMatch(NOTE)
  })

  it('a state of other resources (another configuration one folder up) is not this one: no note', async () => {
    const em = await emulator({ obfuscate: true })
    const repo = tempdir()
    mkdirSync(join(repo, 'shop'), { recursive: true })
    cpSync(join(ROOT, 'examples', 'config', 'targets'), join(repo, 'shop', 'targets'), { recursive: true })
    expect((await cli(em, repo, ['apply', 'shop', '--auto-approve', '--state', '.scansync/state.json'], EXAMPLE_SECRETS)).code).toBe(0)
    mkdirSync(join(repo, 'fleet'))
    cpSync(join(ROOT, 'examples', 'config', 'agents.yaml'), join(repo, 'fleet', 'agents.yaml'))
    const other = await cli(em, repo, ['plan', 'fleet'], EXAMPLE_SECRETS)
    expect(other.code).toBe(0)
    expect(other.stderr).not.toMatch(NOTE)
    expect(other.stderr).not.toContain('Note: there is no secrets state')
  })
})
