// Review round 25 (the editor's schema agrees with validate): a target may leave out its id when
// site.url identifies it, an agent when its name does, but not both. validate refuses
//   targets: [{site: {name: Shop}}]     agents: [{teams: [Tm1]}]
// ("a target without id needs site.url, …"), while the schema editors apply
// (schemas/config.schema.json) took both without a mark. The schema now asks editors for the id
// or the natural key; validate keeps its own words for it.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import { runCli, ROOT } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const require = createRequire(import.meta.url)
const { default: Ajv } = require('ajv') as typeof import('ajv')
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default

/** The schema as an editor applies it: draft-07, ajv-formats, to the YAML as parsed (merge keys resolved). */
function editor(): (text: string) => boolean {
  const ajv = new Ajv({ allErrors: true, strict: false })
  addFormats(ajv)
  const check = ajv.compile(JSON.parse(readFileSync(`${ROOT}schemas/config.schema.json`, 'utf8')) as object)
  return (text) => check(parse(text, { merge: true })) as boolean
}

const refused = {
  'no target key': 'targets:\n  - site: {name: Shop}\n',
  'no target site': 'targets:\n  - {}\n',
  'no agent key': 'agents:\n  - teams: [Tm1]\n',
}
const accepted = {
  'target by id': 'targets:\n  - id: T1\n',
  'target by url': 'targets:\n  - site: {url: "https://shop.example.com/"}\n',
  'target by merged url': 'x-site: &site {site: {name: Shop, url: "https://shop.example.com/"}}\ntargets:\n  - <<: *site\n',
  'agent by id': 'agents:\n  - id: A1\n    teams: [Tm1]\n',
  'agent by name': 'agents:\n  - name: dc-lisbon-agent\n',
}

it('a resource with neither its id nor its natural key is refused by validate and marked in the editor', async () => {
  const check = editor()
  for (const [what, text] of Object.entries(refused)) {
    const run = await runCli(['validate', '.'], { cwd: temporaryDirectory('scansync-r25-key-', { 'config.yaml': text }), env: {} })
    expect(run.code, what).toBe(1)
    expect(run.stderr, what).toMatch(/config\.yaml:2:5: (targets|agents)\[0\]: an? (target|agent) without id needs/)
    expect(check(text), what).toBe(false)
  }
  for (const [what, text] of Object.entries(accepted)) {
    const run = await runCli(['validate', '.'], { cwd: temporaryDirectory('scansync-r25-key-', { 'config.yaml': text }), env: {} })
    expect(run.stderr, what).toBe('')
    expect(run.code, what).toBe(0)
    expect(check(text), what).toBe(true)
  }
})
