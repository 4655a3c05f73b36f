// Review round 24 (the contract, statement by statement): "State key ... when the current key is
// another, hidden secrets are reported as 'cannot be checked: the state was written with another
// key' ... with the message saying what to set." A job whose SCANSYNC_STATE_KEY is set but empty
// (a CI secret that is missing in that repository or environment: `SCANSYNC_STATE_KEY:
// ${{ secrets.SCANSYNC_STATE_KEY }}` gives "") was told "SCANSYNC_STATE_KEY is not set here",
// which its workflow contradicts; it now says that the variable is empty, as the errors about an
// empty SCANSYNC_API_URL or SCANSYNC_API_TOKEN (and an empty ${NAME}) do.
import { expect, it } from 'vitest'
import { appliedWithState, cli, EXAMPLE_SECRETS } from './helpers.js'

it('a state key set to the empty string is said to be empty, not unset', async () => {
  const { em, dir } = await appliedWithState()
  const keyed = { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: 'review24-Key-5e6f7a8b9c' }
  const rekeyed = await cli(em, dir, ['apply', '--auto-approve'], keyed)
  expect(rekeyed.code, rekeyed.stderr).toBe(0)

  const empty = await cli(em, dir, ['drift'], { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: '' })
  expect(empty.code, empty.stderr).toBe(0)
  expect(empty.stderr).toContain('the state was written with another key')
  expect(empty.stderr).toContain('SCANSYNC_STATE_KEY is empty here')
  expect(empty.stderr).not.toContain('is not set here')

  const unset = await cli(em, dir, ['drift'], { ...EXAMPLE_SECRETS, SCANSYNC_STATE_KEY: undefined })
  expect(unset.code, unset.stderr).toBe(0)
  expect(unset.stderr).toContain('SCANSYNC_STATE_KEY is not set here')
})
