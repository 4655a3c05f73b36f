// A newcomer writes a field at the wrong level: `url:` beside `site:` instead of inside it, `name:`
// at the target's top level, `api_scan_settings:` inside `site:`. Each was told only "unknown
// field" with the list of fields of that level, which does not hold it: nothing said that the
// field exists, one level in or out. Now the error says where it belongs.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

const validate = async (text: string) => (await refusedFile(text)).lines

describe.concurrent('a field written one level too far out or in', () => {
  it.each([
    ['url beside site: it belongs inside site', 'targets:\n  - site:\n      name: A\n    url: https://a.example.com/\n', 'a.yaml:4:5: targets[0]: url: unknown field; it belongs inside "site": indent it under "site"'],
    ['name at the top level of a target: it belongs inside site', 'targets:\n  - name: A\n    site:\n      url: https://a.example.com/\n', 'a.yaml:2:5: targets[0]: name: unknown field; it belongs inside "site": indent it under "site"'],
    [
      'api_scan_settings inside site: it belongs beside site',
      'targets:\n  - site:\n      name: A\n      url: https://a.example.com/\n      api_scan_settings:\n        api_schema_type: openapi\n',
      'a.yaml:5:7: targets[0]: site.api_scan_settings: unknown field; it belongs one level up, beside "site" (not inside it)',
    ],
  ])('%s', async (_, yaml, error) => {
    expect(await validate(yaml)).toEqual([error])
  })

  it('a near miss still gets its "did you mean", and a field of no level its list', async () => {
    expect(await validate('targets:\n  - site:\n      url: https://a.example.com/\n    label: [x]\n    frobnicate: 1\n')).toEqual([
      'a.yaml:4:5: targets[0]: label: unknown field; did you mean "labels"?',
      expect.stringMatching(/^a\.yaml:5:5: targets\[0\]: frobnicate: unknown field \(known fields: id, site, /),
    ])
  })
})
