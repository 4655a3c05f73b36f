/**
 * The part of undici the transport uses: its Pool and its request() API, loaded without undici's
 * index. The index loads all of undici (fetch, WebSocket, cookies, and through them Node's own
 * bundled copy of undici), which was most of the time spent loading modules before the first
 * request. These are the two modules the index itself assembles `pool.request` from; undici is
 * pinned to the version they were checked against, and test/client/undici-pool.test.ts checks
 * them against the public API.
 */
import { createRequire } from 'node:module'
import type { Dispatcher, Pool as UndiciPool } from 'undici'

const require = createRequire(import.meta.url)

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool
const requestApi = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>

/** `pool.request(options)`, as undici's index defines it. */
export const poolRequest = (pool: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> => requestApi.call(pool, options)
