// Windows PowerShell 5 writes what `>` redirects as UTF-16 with a byte order mark: a file made by
// `scansync import --kind target --all > targets.yaml` there was refused with only `targets.yaml:1:1:
// the file is not valid UTF-8 text`, leaving the user to guess why text that looks right in every
// editor is not. The error now says the file is UTF-16 and to save it as UTF-8.
import { mkdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const YAML = 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ok\n'

describe('a configuration file written as UTF-16', () => {
  it('is refused saying it is UTF-16 and to save it as UTF-8 (little and big endian)', async () => {
    const dir = temporaryDirectory('scansync-r18-utf16-', {})
    mkdirSync(`${dir}/config`)
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(YAML, 'utf16le')])
    writeFileSync(`${dir}/config/le.yaml`, le)
    writeFileSync(`${dir}/config/be.yaml`, Buffer.from(le.map((_, i) => le[i ^ 1]!)))
    const run = await runCli(['validate', 'config'], { cwd: dir })
    expect(run.code).toBe(1)
    const message = 'the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8: save it as UTF-8 (in PowerShell, write it with Out-File -Encoding utf8 or --out DIR)'
    expect(run.stderr.split('\n')).toEqual([`config/be.yaml:1:1: ${message}`, `config/le.yaml:1:1: ${message}`, '2 errors; nothing was sent.', ''])
  })
})
