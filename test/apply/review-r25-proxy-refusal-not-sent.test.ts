// A write whose tunnel the proxy refused (HTTPS_PROXY answering CONNECT with 407, 403 or 502 on
// every attempt) never reached the service: apply said "it may or may not have been applied: run
// scansync plan to see" and counted it in flight, as for a connection lost after the request went out.
import { describe, expect, it } from 'vitest'
import { mayHaveLanded } from '../../src/apply/executor.js'
import { ServiceUnavailableError } from '../../src/client/index.js'

/** What undici's ProxyAgent fails a request with when the proxy refuses the tunnel (pinned in test/client/proxy.test.ts). */
const refused = (status: number) =>
  new ServiceUnavailableError('x', { cause: Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), { code: 'UND_ERR_ABORTED' }) })

describe('a write the proxy refused to open a tunnel for', () => {
  it.each([407, 403, 502, 503])('is known not to have landed (proxy answered %i)', (status) => {
    expect(mayHaveLanded(refused(status))).toBe(false)
  })

  it('a connection lost inside an open tunnel still may have landed', () => {
    const lost = new ServiceUnavailableError('x', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })
    expect(mayHaveLanded(lost)).toBe(true)
  })
})
