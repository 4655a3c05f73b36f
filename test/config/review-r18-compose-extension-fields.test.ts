// `scansync validate` with PATH left out, in a repository whose docker-compose.yml uses extension
// fields (`x-logging: &log …`, the compose specification's way to share blocks), said only
// `docker-compose.yml:3:1: services: unknown field`, without naming the file as another tool's
// and without the hint to pass the configuration directory: an `x-…` key counted as a key of a
// scansync file. `x-` keys now say nothing either way; a file of x- keys and known lists is still
// a configuration file.
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const COMPOSE = `x-logging: &log
  driver: json-file
services:
  web:
    image: nginx
    logging: *log
`
const AGENTS = `x-team: &team Tm8Kq2Xa9Lp3
agents:
  - id: 3kLx8Qy7Pb2m
    name: dc-lisbon-agent
    teams: [*team]
`

describe('PATH left out, a docker-compose file with extension fields beside the configuration', () => {
  it('is named as another tool\'s file, with the command again; the configuration\'s own x- keys are still its', async () => {
    const dir = temporaryDirectory('scansync-r18-compose-', { 'docker-compose.yml': COMPOSE, 'config/agents.yaml': AGENTS })
    const run = await runCli(['validate'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('docker-compose.yml:1:1: not a scansync configuration file: its top-level keys are x-logging, services, none of targets, assets, agents, policies')
    expect(run.stderr).toContain('Pass the configuration directory: scansync validate config')
    expect(run.stderr).not.toContain('unknown field')
    expect(run.stderr).not.toContain('config/agents.yaml')
    const valid = await runCli(['validate', 'config'], { cwd: dir })
    expect(valid.stdout + valid.stderr).toContain('Valid: 1 file, 0 targets, 0 assets, 1 agent.')
    expect(valid.code).toBe(0)
  })
})
