import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Plan } from '../../src/plan/model.js'
import { runCli } from '../helpers/cli.js'
import { connection, emulator, exampleSeed, planRun, tempDir } from './helpers.js'

// Review round 19 (this round's changes as a user meets them): a part import leaves out for its
// secret is written in a comment, as the lines to add (`#     username: "…"`). A value there holding a
// line or paragraph separator (now double-quoted, so that it reads back) was cut at it by the YAML
// writer's comment step, which starts a comment line after U+2028 as after a line feed: the line
// read `username: "sc<U+2028>  #an"`. A user who uncommented the lines, as told, planned to change
// the username to a value with "  #" in it. The comment now holds the separator as its escape.
const USERNAME = 'sc\u2028an\u2029ner'
const PASSWORD = 'basic-Pw-7c2e9a41'

/** The example configuration's live shop, with the basic auth user above. */
function seed() {
  const data = exampleSeed()
  const shop = data.targets!.find((t) => t.id === '2DZkoZH8WMEM')!
  shop.site!.basic_auth = { username: USERNAME, password: PASSWORD, password_is_sensitive: true }
  return data
}

/** The YAML with the commented lines to add put under `site:`, uncommented, as the comment says. */
function uncommented(yaml: string): string {
  const lines = yaml.split('\n')
  const start = lines.findIndex((l) => l.includes('Left out: site.basic_auth'))
  const block: string[] = []
  for (let i = start + 1; lines[i]!.startsWith('  #   '); i++) block.push(`    ${lines[i]!.slice('  #   '.length)}`)
  const out = lines.filter((_, i) => i < start || i > start + block.length)
  const site = out.findIndex((l, i) => l === '    site:' && out.slice(0, i).some((x) => x.includes('2DZkoZH8WMEM')))
  out.splice(site + 1, 0, ...block.map((l) => `  ${l}`))
  return out.join('\n')
}

describe('import: a left-out part whose value holds a line or paragraph separator', () => {
  it.each([['stdout'], ['--out']])('to %s: uncommented as told, the next plan is empty', async (where) => {
    const em = await emulator({ seed: seed() })
    const dir = tempDir()
    const args = ['import', '--kind', 'target', '--id', '2DZkoZH8WMEM', ...(where === '--out' ? ['--out', dir] : [])]
    const imported = await runCli(args, { env: connection(em) })
    expect(imported.code, imported.stderr).toBe(0)
    const yaml = where === '--out' ? readFileSync(join(dir, 'targets.yaml'), 'utf8') : imported.stdout
    expect(yaml).toContain('Left out: site.basic_auth')
    writeFileSync(join(dir, 'targets.yaml'), uncommented(yaml))
    const variable = /set (TARGET_2DZKOZH8WMEM_SITE_BASIC_AUTH_PASSWORD)/.exec(yaml)![1]!
    const plan = await planRun(em, dir, { [variable]: PASSWORD }, 'json')
    expect(plan.code === 0 ? [] : plan.code === 2 ? (JSON.parse(plan.out) as Plan).changes : plan.err).toEqual([])
  })
})
