// Review round 16: a natural key (an agent's name, a target's URL) from a variable, declared twice:
// the error quoted it, and a weak value (a four-letter name) is one the output step leaves in texts.
import { describe, expect, it } from 'vitest'
import { runValidate } from '../../src/cli/run/validate.js'
import { captureIo } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const CONFIG = [
  'agents:',
  '  - name: "${AG}"',
  '  - name: "${AG}"',
  '  - id: 3kLx8Qy7Pb2m',
  '    name: Kw9z',
  'targets:',
  '  - site: {name: A, url: "https://${SUB}.example.com/"}',
  '  - id: 2DZkoZH8WMEM',
  '    site: {url: "https://abc.example.com/"}',
  '',
].join('\n')

describe('a natural key from a variable, declared twice', () => {
  it('is (sensitive) in the errors, even where the other declaration writes it literally', async () => {
    const dir = temporaryDirectory('scansync-r16-', { 'a.yaml': CONFIG })
    const io = captureIo({ env: { AG: 'Kw9z', SUB: 'abc' }, cwd: dir })
    expect(await runValidate({ paths: [dir] }, io)).toBe(1)
    const err = io.err()
    expect(err).toContain('agent with name (sensitive) is declared twice without id')
    expect(err).toContain('agent 3kLx8Qy7Pb2m: name (sensitive) is also the name')
    expect(err).toContain('target 2DZkoZH8WMEM: site.url (sensitive) is also the site.url')
    expect(err).not.toMatch(/Kw9z|abc\.example/)
  })
})

describe('a literal natural key equal to a secret of the configuration, declared twice', () => {
  // Review 2, round 16: only a key from a variable was (sensitive); an agent named literally as a
  // weak password from a variable was printed, while a label of that name is (sensitive).
  it('is (sensitive) in the errors, as a label of that name is', async () => {
    const config = [
      'agents:',
      '  - name: Kw9z',
      '  - name: Kw9z',
      'targets:',
      '  - id: 2DZkoZH8WMEM',
      '    site:',
      '      has_basic_auth: true',
      '      basic_auth: {username: u, password: "${PW}", password_is_sensitive: true}',
      '',
    ].join('\n')
    const dir = temporaryDirectory('scansync-r16-', { 'a.yaml': config })
    const io = captureIo({ env: { PW: 'Kw9z' }, cwd: dir })
    expect(await runValidate({ paths: [dir] }, io)).toBe(1)
    const err = io.err()
    expect(err).toContain('agent with name (sensitive) is declared twice without id')
    expect(err).not.toMatch(/Kw9z/)
  })
})
