// Review round 19 (the secrets state's record of variables' values): a blacklist entry applied from
// a ${VARIABLE}, then written in the YAML as that same literal beside a new entry. The state still
// records the value (the service holds it), so plan showed the entry the service keeps as removed
// and as added: `+ ".../admin"`, `+ ".../logout"`, `- (sensitive)`, though only /admin is added.
// A live item the YAML now writes as it is is shown as the YAML's: the plan says what changes.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const LOGOUT = 'https://staging.shop.example.com/logout'
const ADMIN = 'https://staging.shop.example.com/admin'

it('an item once from a variable, now the same literal, is not shown removed and added', async () => {
  const em = await emulator()
  const dir = tempdir({ 'c.yaml': `targets:\n  - id: 7QwErTy2UiOp\n    site:\n      blacklist: ["\${BL}"]\n` })
  const first = await cli(em, dir, ['apply', '--auto-approve'], { BL: LOGOUT })
  expect(first.code, first.stderr).toBe(0)
  writeFileSync(join(dir, 'c.yaml'), `targets:\n  - id: 7QwErTy2UiOp\n    site:\n      blacklist: ["${LOGOUT}", "${ADMIN}"]\n`)

  const json = await cli(em, dir, ['plan', '--format', 'json'])
  expect(json.code, json.stderr).toBe(0)
  const fields = JSON.parse(json.stdout).changes[0].fields as { path: string; before: unknown; after: unknown }[]
  expect(fields).toHaveLength(1)
  expect(fields[0]).toMatchObject({ path: 'site.blacklist', before: [LOGOUT], after: [ADMIN, LOGOUT] })

  const text = await cli(em, dir, ['plan'])
  expect(text.code, text.stderr).toBe(0)
  expect(text.stdout).toContain(`+ "${ADMIN}"`)
  expect(text.stdout).not.toContain(`+ "${LOGOUT}"`)
  expect(text.stdout).not.toContain('(sensitive)')
})
