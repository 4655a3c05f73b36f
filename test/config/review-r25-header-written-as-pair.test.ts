// A newcomer writes a header as the pair it stands for, `- Authorization: Bearer x`, instead of
// `- name: Authorization` / `value: …`. The error asked "did you mean "authentication"?" (a flag of
// a header, which is no help) and added that name and value were missing. Now one error says how
// to write the item.
import { afterAll, describe, expect, it } from 'vitest'
import { refusedFile, removeTestdirs } from './helpers.js'

afterAll(removeTestdirs)

const validate = async (text: string) => {
  const { lines, stderr } = await refusedFile(text, { TOKEN_VALUE: 'Bearer s3cr3t-from-var' })
  expect(stderr).not.toContain('s3cr3t')
  return lines
}

const site = 'targets:\n  - site:\n      name: A\n      url: https://a.example.com/\n'

describe.concurrent('a {name, value} item written as one field', () => {
  it('a header: one error, saying how to write it, without its value', async () => {
    expect(await validate(`${site}      headers:\n        - Authorization: \${TOKEN_VALUE}\n`)).toEqual([
      'a.yaml:6:11: targets[0]: site.headers[0].Authorization: unknown field; an item here is a mapping {name, value}: write name: "Authorization" and the value as value:, each on its own line',
    ])
  })

  it('a login form field', async () => {
    expect(await validate(`${site}      form_login:\n        - email: scanner@example.com\n`)).toEqual([
      'a.yaml:6:11: targets[0]: site.form_login[0].email: unknown field; an item here is a mapping {name, value}: write name: "email" and the value as value:, each on its own line',
    ])
  })

  it('a misspelt name is still a misspelt name', async () => {
    expect(await validate(`${site}      headers:\n        - nme: X-Scanner\n`)).toEqual([
      'a.yaml:6:11: targets[0]: site.headers[0].nme: unknown field; did you mean "name"?',
      'a.yaml:6:11: targets[0]: site.headers[0]: missing required fields "name" and "value"',
    ])
  })
})
