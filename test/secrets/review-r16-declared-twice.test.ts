// Review round 16: a list key (a label, a header name) or a label colour from a variable, in the
// errors of a list key declared twice or a label with two colours: a weak value was printed.
import { describe, expect, it } from 'vitest'
import { runValidate } from '../../src/cli/run/validate.js'
import { captureIo } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const CONFIG = [
  'targets:',
  '  - id: 2DZkoZH8WMEM',
  '    labels: ["${L}", {name: Kw9z}, {name: pci, color: "${C}"}]',
  '    site:',
  '      headers: [{name: "${L}", value: a}, {name: "${L}", value: b}]',
  '  - id: 5HnBvC3xZaQw',
  '    labels: [{name: pci, color: "#00ff00"}, {name: prod, color: red}]',
  'assets:',
  '  - id: 9fGh2Kd8LmQz',
  '    labels: [{name: prod, color: blue}]',
  '',
].join('\n')

describe('a key declared twice, a label with two colours', () => {
  it('quote a value from a variable as (sensitive), and a literal equal to one too', async () => {
    const dir = temporaryDirectory('scansync-r16-', { 'a.yaml': CONFIG })
    const io = captureIo({ env: { L: 'Kw9z', C: 'cyan' }, cwd: dir })
    expect(await runValidate({ paths: [dir] }, io)).toBe(1)
    const err = io.err()
    expect(err).toContain('labels[1]: name (sensitive) is declared twice')
    expect(err).toContain('site.headers[1]: name (sensitive) is declared twice')
    expect(err).toContain('the label "pci" is declared with the colour "#00ff00" here and (sensitive) at')
    // Texts holding no secret are quoted as before.
    expect(err).toContain('the label "prod" is declared with the colour "blue" here and "red" at')
    expect(err).not.toMatch(/kw9z|cyan/i)
  })
})
