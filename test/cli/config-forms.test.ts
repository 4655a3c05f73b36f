// Files as users write them (issue 17, friction): a bare scanning-agent id, every error in one run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig, tempdir } from '../e2e/helpers.js'
import { ROOT, runCli } from '../helpers/cli.js'

describe.concurrent('configuration forms', () => {
  it('scanning_agent: <id> is shorthand for {id: <id>}, as teams allow', async () => {
    const dir = exampleConfig()
    const shop = join(dir, 'targets', 'shop.yaml')
    const text = readFileSync(shop, 'utf8')
    expect(text).toMatch(/scanning_agent: \{id: 3kLx8Qy7Pb2m\}/)
    const bare = tempdir({
      'targets.yaml': text.replace(/scanning_agent: \{id: 3kLx8Qy7Pb2m\}/, 'scanning_agent: 3kLx8Qy7Pb2m'),
      'agents.yaml': readFileSync(join(ROOT, 'examples/config/agents.yaml'), 'utf8'),
    })
    const valid = await runCli(['validate', bare])
    expect(valid.stderr).toBe('')
    expect(valid.code).toBe(0)
    const em = await emulator()
    const [long, short] = await Promise.all([cli(em, dir, ['plan', 'targets/shop.yaml', '--format', 'json']), cli(em, bare, ['plan', 'targets.yaml', '--format', 'json'])])
    expect(short.code).toBe(0)
    const fields = (out: string) => (JSON.parse(out) as { changes: { fields: { path: string }[] }[] }).changes.flatMap((c) => c.fields.map((f) => f.path))
    expect(fields(short.stdout)).toEqual(fields(long.stdout))
    expect(fields(short.stdout)).not.toContain('scanning_agent')
  })

  it('validation reports a label declared twice in one file and a schema error in another, in one run', async () => {
    const dir = tempdir({
      'agents.yaml': 'agents:\n  - id: A1\n    name: agent\n    bogus: 1\n',
      'targets.yaml': 'targets:\n  - id: T1\n    labels: [prod, prod]\n',
    })
    const { code, stderr } = await runCli(['validate', dir])
    expect(code).toBe(1)
    expect(stderr).toMatch(/agents\.yaml:4:5: .*bogus/)
    expect(stderr).toMatch(/targets\.yaml:\d+:\d+: target T1: labels\[1\]: name "prod" is declared twice/)
    expect(stderr).toMatch(/^2 errors; nothing was sent\.$/m)
  })
})
