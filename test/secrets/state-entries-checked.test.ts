// A secrets state whose entries are not records (an `hmac` of 5, a text where an entry goes) was
// taken as it was: drift then reported a hidden secret as changed on the service until the next
// apply wrote over it. Every entry is now checked against schemas/state.schema.json when the state
// is read; a state that fails is refused as not a state file, with what to do.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSecretsState } from '../../src/secrets/state.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const state = (entry: unknown) => JSON.stringify({ format_version: 1, resources: { 'target/2DZkoZH8WMEM': { 'site.basic_auth.password': entry } } })

describe('reading the secrets state', () => {
  it.each([
    ['an hmac that is a number', { hmac: 5 }],
    ['an hmac that is not 64 hex digits', { hmac: 'abc' }],
    ['a text where an entry goes', 'a'.repeat(64)],
    ['an entry with a member no state writes', { hmac: 'a'.repeat(64), value: 'hunter2' }],
  ])('refuses %s, saying to move the state away', async (_, entry) => {
    const dir = temporaryDirectory('scansync-state-entries-')
    mkdirSync(join(dir, '.scansync'))
    const path = join(dir, '.scansync', 'state.json')
    writeFileSync(path, state(entry))
    await expect(readSecretsState(path)).rejects.toThrow(`the secrets state ${path} is not a scansync state file; move it away to start over`)
  })

  it('takes a well-formed one', async () => {
    const dir = temporaryDirectory('scansync-state-entries-')
    const path = join(dir, 'state.json')
    writeFileSync(path, state({ hmac: 'a'.repeat(64), live: 'OBFUSCATED_1234' }))
    expect((await readSecretsState(path)).resources['target/2DZkoZH8WMEM']).toBeDefined()
  })
})
