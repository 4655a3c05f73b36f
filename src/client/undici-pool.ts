/**
 * The part of undici the transport uses: its Pool and its request() API, loaded without undici's
 * index. The index loads all of undici (fetch, WebSocket, cookies, and through them Node's own
 * bundled copy of undici), which was most of the time spent loading modules before the first
 * request. These are the two modules the index itself assembles `pool.request` from; undici is
 * pinned to the version they were checked against, and test/client/undici-pool.test.ts checks
 * them against the public API.
 */
import { createRequire } from 'node:module'
import type { Dispatcher, Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici'
import { requireBuilt } from '../core/code-cache.js'

const require = createRequire(import.meta.url)

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>

/**
 * The two modules from the one file the build makes of them (scripts/bundle.js: ~25 files fewer
 * to load before the first request); from the package itself when running from the sources,
 * where there is no such file.
 */
function loadUndici(): { Pool: typeof UndiciPool; request: RequestApi } {
  const built = requireBuilt(new URL('./undici.bundle.cjs', import.meta.url)) as { Pool: typeof UndiciPool; request: RequestApi } | undefined
  return built ?? { Pool: require('undici/lib/dispatcher/pool.js') as typeof UndiciPool, request: require('undici/lib/api/api-request.js') as RequestApi }
}

const undici = loadUndici()
export const Pool = undici.Pool
const requestApi = undici.request

/** `pool.request(options)`, as undici's index defines it. */
export const poolRequest = (pool: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> => requestApi.call(pool, options)

/**
 * undici's ProxyAgent, from its public entry point: loaded only by a run that goes through a proxy
 * (proxy.ts), which can afford undici's whole index.
 */
export const loadProxyAgent = (): typeof UndiciProxyAgent => (require('undici') as { ProxyAgent: typeof UndiciProxyAgent }).ProxyAgent

/** undici's Pool from the same entry point: the ProxyAgent's connection to the proxy itself (it asks it for tunnels). */
export const loadProxyPool = (): typeof UndiciPool => (require('undici') as { Pool: typeof UndiciPool }).Pool
