// Review round 22 (attacks on this round's escaping): every printed text now writes the format
// characters (\p{Cf}) as `\uXXXX`, the `file=` of a GitHub annotation too: a configuration file
// whose name holds a Persian zero-width non-joiner (`تنظیمات‌اصلی.yaml`) or an emoji's joiner was
// annotated as `file=تنظیمات\u200cاصلی.yaml`, a file that does not exist, so the annotation did
// not land on the file in the pull request. The file's name is written as it is again (controls
// and bidirectional marks still escaped); the title and the message keep the escapes.
import { describe, expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const FILES = ['تنظیمات\u200cاصلی.yaml', 'team-👩\u200d💻.yaml']

describe('an annotation on a file whose name holds a joiner', () => {
  it.each(FILES)('names the file as it is: an invalid configuration (%j)', async (file) => {
    const em = await emulator()
    const dir = tempdir({ [file]: 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: 5}\n' })
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.code).toBe(1)
    const annotations = github.stderr.split('\n').filter((line) => line.startsWith('::error '))
    expect(annotations.length).toBeGreaterThan(0)
    for (const line of annotations) expect(line.startsWith(`::error file=${file},line=3,`)).toBe(true)
  })

  it.each(FILES)("names the file as it is: a plan's change, whose value keeps its escape (%j)", async (file) => {
    const em = await emulator()
    const dir = tempdir({ [file]: 'targets:\n  - id: 2DZkoZH8WMEM\n    site:\n      name: "Pro\\u200bmo"\n' })
    const github = await cli(em, dir, ['plan', '--format', 'github'])
    expect(github.code, github.stderr).toBe(0)
    const warning = github.stdout.split('\n').find((line) => line.startsWith('::warning '))!
    expect(warning.startsWith(`::warning file=${file},line=4,`)).toBe(true)
    expect(warning).toContain('"Pro\\u200bmo"')
    expect(warning).not.toContain('Pro\u200bmo')
  })
})
