// Review round 26 (files written on Windows and by Windows tools): a saved plan passed through a
// Windows tool on its way to the apply job (opened and saved in Notepad as "UTF-8 with BOM",
// `Get-Content plan.json | Set-Content -Encoding UTF8` in Windows PowerShell) starts with a byte
// order mark. apply --plan refused it as "not JSON", though its JSON and checksum are the same;
// the secrets state and the configuration's files are read past one. Now the plan is too.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from './helpers.js'

it('a saved plan with a byte order mark and CRLF line ends applies as the plan written', async () => {
  const em = await emulator()
  const dir = exampleConfig()
  const saved = await cli(em, dir, ['plan', '--out', 'plan.json'], EXAMPLE_SECRETS)
  expect(saved.code, saved.stderr).toBe(0)
  const file = join(dir, 'plan.json')
  writeFileSync(file, '\uFEFF' + readFileSync(file, 'utf8').replace(/\n/g, '\r\n'))
  const run = await cli(em, dir, ['apply', '--plan', 'plan.json', '--auto-approve'], EXAMPLE_SECRETS)
  expect(run.stderr).not.toContain('not JSON')
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout).toContain('applied')
})
