// An error's message may quote the service's words (a 5xx's detail) or anything else scansync did
// not write. The output step keeps the escape sequences that look like scansync's own colours and
// cursor moves (its progress bar), so a `\e[8m` (conceal), `\e[2K` (erase the line) or `\e[0G`
// in those words reached the terminal: the error line could be erased or hidden. Everything else
// the service says is printed with its control characters escaped; an error's words must be too.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from './helpers.js'
import { startProxy } from './proxy.js'

const WORDS = 'boom\u001b[8mhidden\u001b[2K\u001b[0G\u001b[31mred\u001b7'

describe("the service's words in an error line", () => {
  it('carry no terminal sequence, in any format', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.path.startsWith('/discovery/assets/')) return { status: 500, body: JSON.stringify({ detail: WORDS }) }
      return forward()
    })
    const dir = exampleConfig()
    for (const format of ['text', 'github', 'json', 'markdown']) {
      const run = await cli(em, dir, ['plan', '--kind', 'asset', '--format', format], { SCANSYNC_API_URL: proxy.url, SCANSYNC_MAX_ATTEMPTS: '1' })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('Error: the asset list: the service failed (HTTP 500): boom\\u001b[8mhidden\\u001b[2K\\u001b[0G\\u001b[31mred\\u001b7')
      expect(run.stdout + run.stderr).not.toContain('\u001b')
    }
  })
})
