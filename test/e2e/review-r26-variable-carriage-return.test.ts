// Review round 26 (files written on Windows and by Windows tools): a `.env` file saved on Windows
// has CRLF line ends, and exported to the environment the usual ways (`set -a; . ./.env`,
// `export $(cat .env | xargs)`, a CI step reading it line by line) each value keeps the `\r`:
//   SHOP_BASIC_AUTH_PASSWORD=secret\r
// validate said the configuration was valid, plan showed `(sensitive) -> (sensitive)` and apply
// sent "secret\r" as the password: the scans then failed to log in, with nothing said. A value
// ending in a carriage return is now an error naming the variable at its line, as an empty one is.
import { expect, it } from 'vitest'
import { cli, emulator, tempdir } from './helpers.js'

const CONFIG = [
  'targets:',
  '  - id: 2DZkoZH8WMEM',
  '    site:',
  '      basic_auth:',
  '        username: scanner',
  '        password: ${SHOP_BASIC_AUTH_PASSWORD}',
  '        password_is_sensitive: true',
].join('\r\n') + '\r\n'

it('a variable whose value ends in a carriage return is an error at its line, and nothing is sent', async () => {
  const em = await emulator()
  const dir = tempdir({ 'shop.yaml': CONFIG })
  const validate = await cli(em, dir, ['validate'], { SHOP_BASIC_AUTH_PASSWORD: 'basic-Secret-9b7e2c\r' })
  expect(validate.code).toBe(1)
  expect(validate.stderr).toContain('shop.yaml:6:19: ')
  expect(validate.stderr).toContain('environment variable SHOP_BASIC_AUTH_PASSWORD ends with a carriage return')
  expect(validate.stderr).not.toContain('basic-Secret-9b7e2c')

  const apply = await cli(em, dir, ['apply', '--auto-approve'], { SHOP_BASIC_AUTH_PASSWORD: 'basic-Secret-9b7e2c\r\n' })
  expect(apply.code).toBe(1)
  expect(apply.stderr).toContain('environment variable SHOP_BASIC_AUTH_PASSWORD ends with a carriage return')
  expect(em.requests().filter((r) => r.method !== 'GET')).toEqual([])
})

it('the same value without the carriage return, or with one inside it, is taken as it is', async () => {
  const em = await emulator()
  const dir = tempdir({ 'shop.yaml': CONFIG })
  for (const value of ['basic-Secret-9b7e2c', 'line one\r\nline two']) {
    const run = await cli(em, dir, ['validate'], { SHOP_BASIC_AUTH_PASSWORD: value })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  }
})
