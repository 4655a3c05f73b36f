// README, "Quick start: add a new application": the YAML it shows, planned and applied against
// "the emulator's example account", as the README says, must print what the README shows. It
// showed `Plan: 1 to create, 1 to change, 41 unchanged.`, a count no run on that account (11
// resources) can print: a user following it word for word saw another number and could not tell
// which of the two was wrong. The README's own lines are run here, and compared with what it shows.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, runCli } from '../helpers/cli.js'
import { emulatorWith, temporaryDirectory } from '../helpers/emulator.js'

const TOKEN = 'r24-readme-token'
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const SECTION = README.slice(README.indexOf('## Quick start: add a new application'), README.indexOf('## Commands'))

/** The ```yaml block of the section, and the lines of the ```sh block after it. */
function fromReadme(): { yaml: string; sh: string[] } {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(SECTION)![1]!
  const sh = /```sh\n([\s\S]*?)```/.exec(SECTION)![1]!.split('\n')
  return { yaml, sh }
}

describe('README, "Quick start: add a new application", run as written against the emulator', () => {
  it('prints the plan, the creation and the empty plan the README shows', async () => {
    const { yaml, sh } = fromReadme()
    expect(yaml.split('\n')[0]).toBe('# config/shop-new.yaml')
    const emulator = await emulatorWith(TOKEN)()
    const dir = temporaryDirectory('scansync-r24-readme-new-', { 'config/shop-new.yaml': yaml })
    const env = { SCANSYNC_API_URL: emulator.url, SCANSYNC_API_TOKEN: TOKEN }

    // `npx scansync plan config`, then the lines the README shows as its output (`# …`).
    expect(sh[0]).toBe('npx scansync plan config')
    const shown = sh.slice(1, sh.findIndex((line) => line.startsWith('npx scansync apply'))).map((line) => line.replace(/^# ?/, ''))
    const plan = await runCli(['plan', 'config'], { cwd: dir, env })
    expect(plan.code).toBe(0)
    expect(plan.stdout.trimEnd().split('\n')).toEqual(shown)

    const applyLine = sh.find((line) => line.startsWith('npx scansync apply config'))!
    const apply = await runCli(['apply', 'config', '--auto-approve'], { cwd: dir, env })
    expect(apply.code).toBe(0)
    expect(apply.stdout).toContain(applyLine.slice(applyLine.indexOf('✓')))

    const again = sh.find((line) => line.startsWith('npx scansync plan config ') && line.includes('No changes'))!
    expect(again).toBeDefined()
    const after = await runCli(['plan', 'config', '--detailed-exitcode'], { cwd: dir, env })
    expect(after.code).toBe(0)
    expect(after.stdout).toMatch(/^No changes\. /)
  })
})
