// Review round 22 (attacks on this round's escaping): a policy violation's line
// (`FILE:LINE:COLUMN: policy NAME: …`, contract "Policies") is now escaped whole, its format
// characters written `\u200c`: a configuration file whose name holds a zero-width non-joiner (a
// Persian name) or an emoji's joiner was named as a file that does not exist, unlike the same
// file in a configuration error's line, so an editor or a problem matcher could not open it. The
// file's name is written as it is; the message keeps the escapes.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from '../e2e/helpers.js'

const RULE = `policies:
  - name: named-shop
    kind: target
    require: {properties: {site: {properties: {name: {const: Shop}}}}}
`

describe('a policy violation in a file whose name holds a joiner', () => {
  it.each(['تنظیمات\u200cاصلی.yaml', 'team-👩\u200d💻.yaml'])('names the file as it is (%j)', async (file) => {
    const em = await emulator()
    const dir = tempdir({ [file]: `targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: "Sh\\u200bop"}\n${RULE}` })
    const run = await cli(em, dir, ['plan'])
    expect(run.code).toBe(1)
    const line = run.stderr.split('\n').find((l) => l.includes('policy named-shop'))
    expect(line).toBeDefined()
    expect(line!.startsWith(`${file}:2:5: policy named-shop: target 2DZkoZH8WMEM: `)).toBe(true)
  })
})
