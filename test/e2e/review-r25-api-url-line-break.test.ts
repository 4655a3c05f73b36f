// Review round 25 (the network as corporate CI has it): a CI secret or variable very often ends
// with a line break (`echo "$URL" > secret`, a YAML block scalar). SCANSYNC_API_URL="https://…\n"
// reached the service (the client trims the URL), but the words that repeat the URL did not trim
// it: "every read got 404 Not Found …: the service URL http://…/api" broke onto a second line
// before "is probably wrong", and `plan --out` saved `"api_url": "http://…\n"` in the plan file.
// The URL is now trimmed where it is read, once, as the client already treated it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli, emulator, exampleConfig, EXAMPLE_SECRETS } from './helpers.js'

it('a service URL ending with a line break is used and repeated without it', async () => {
  const em = await emulator()
  const dir = exampleConfig()

  const wrongPath = await cli(em, dir, ['plan'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: `${em.url}/api\n` })
  expect(wrongPath.code, wrongPath.stderr).toBe(1)
  expect(wrongPath.stderr).toContain(`the service URL ${em.url}/api is probably wrong`)

  const saved = await cli(em, dir, ['plan', '--out', 'plan.json'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: `${em.url}\n` })
  expect(saved.code, saved.stderr).toBe(0)
  const document = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { api_url: string }
  expect(document.api_url).toBe(em.url)

  // A flag or variable holding only blanks is empty, named as such.
  const blankFlag = await cli(em, dir, ['plan', '--api-url', ' \n'], EXAMPLE_SECRETS)
  expect(blankFlag.code).toBe(1)
  expect(blankFlag.stderr).toContain('--api-url is empty')
  const blankVariable = await cli(em, dir, ['plan'], { ...EXAMPLE_SECRETS, SCANSYNC_API_URL: ' \n' })
  expect(blankVariable.code).toBe(1)
  expect(blankVariable.stderr).toContain('SCANSYNC_API_URL is empty')
})
