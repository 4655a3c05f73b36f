// README, "Commands": "When PATH is left out and a YAML file of another tool is found […], the
// error names it and shows the command again with the configuration directory." `scansync audit`
// and `scansync apply` showed another command: "Pass the configuration directory: scansync plan
// config", so that a user pasting it ran a plan instead of the audit (or the apply) they asked for.
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { emulatorWith, temporaryDirectory } from '../helpers/emulator.js'

const TOKEN = 'r24-path-hint-token'
const COMPOSE = 'services:\n  web:\n    image: nginx\n'
const CONFIG = `targets:
  - id: 2DZkoZH8WMEM
    site: {name: Shop}
policies:
  - name: target-has-label
    kind: target
    require: {required: [labels]}
`

describe('PATH left out beside another tool\'s YAML: the hint repeats the command that was run', () => {
  it.each(['validate', 'plan', 'drift', 'apply', 'audit'])('scansync %s', async (command) => {
    const emulator = await emulatorWith(TOKEN)()
    const dir = temporaryDirectory('scansync-r24-hint-', { 'docker-compose.yml': COMPOSE, 'config/shop.yaml': CONFIG })
    const run = await runCli(command === 'apply' ? [command, '--auto-approve'] : [command], {
      cwd: dir,
      env: { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN },
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('docker-compose.yml:1:1: not a scansync configuration file')
    expect(run.stderr).toContain(`Pass the configuration directory: scansync ${command} config\n`)
    expect(emulator.requests().filter((r) => r.method !== 'GET')).toEqual([])
  })
})
