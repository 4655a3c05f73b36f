// A newcomer writes a field at the wrong level: `url:` beside `site:` instead of inside it, `name:`
// at the target's top level, `api_scan_settings:` inside `site:`. Each was told only "unknown
// field" with the list of fields of that level, which does not hold it: nothing said that the
// field exists, one level in or out. Now the error says where it belongs.
import { afterAll, describe, expect, it } from 'vitest'
import { removeTestdirs, testdir } from './helpers.js'
import { runCli } from '../helpers/cli.js'

afterAll(removeTestdirs)

const validate = async (text: string) => {
  const dir = testdir({ 'a.yaml': text })
  const { code, stderr } = await runCli(['validate', dir], { cwd: dir })
  expect(code).toBe(1)
  return stderr.split('\n').filter((line) => line.includes('a.yaml:')).map((line) => line.slice(line.indexOf('a.yaml:')))
}

describe.concurrent('a field written one level too far out or in', () => {
  it('url beside site: it belongs inside site', async () => {
    expect(await validate('targets:\n  - site:\n      name: A\n    url: https://a.example.com/\n')).toEqual([
      'a.yaml:4:5: targets[0]: url: unknown field; it belongs inside "site": indent it under "site"',
    ])
  })

  it('name at the top level of a target: it belongs inside site', async () => {
    expect(await validate('targets:\n  - name: A\n    site:\n      url: https://a.example.com/\n')).toEqual([
      'a.yaml:2:5: targets[0]: name: unknown field; it belongs inside "site": indent it under "site"',
    ])
  })

  it('api_scan_settings inside site: it belongs beside site', async () => {
    expect(await validate('targets:\n  - site:\n      name: A\n      url: https://a.example.com/\n      api_scan_settings:\n        api_schema_type: openapi\n')).toEqual([
      'a.yaml:5:7: targets[0]: site.api_scan_settings: unknown field; it belongs one level up, beside "site" (not inside it)',
    ])
  })

  it('a near miss still gets its "did you mean", and a field of no level its list', async () => {
    expect(await validate('targets:\n  - site:\n      url: https://a.example.com/\n    label: [x]\n    frobnicate: 1\n')).toEqual([
      'a.yaml:4:5: targets[0]: label: unknown field; did you mean "labels"?',
      expect.stringMatching(/^a\.yaml:5:5: targets\[0\]: frobnicate: unknown field \(known fields: id, site, /),
    ])
  })
})
