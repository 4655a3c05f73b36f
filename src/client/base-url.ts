/**
 * Rules for the service base URL and for the request paths appended to it.
 * The token goes to exactly one origin: https, or plain http only where it cannot leave the
 * machine (loopback) unless the user opted in with --insecure-http.
 */
import { isIPv4 } from 'node:net'

import { UsageError } from './errors.js'

/**
 * Only literal loopback names and addresses: `localhost`, `127.0.0.0/8` and `[::1]` (WHATWG URL
 * parsing already normalises `127.1`, `127.0.0.1.`, `[0::1]`). `localhost.` is a fully qualified
 * name that is resolved through DNS, which may answer anything: it is not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost') return true
  if (host === '[::1]' || host === '::1') return true
  return isIPv4(host) && host.startsWith('127.')
}

/**
 * Parses and checks the base URL. The messages never repeat the URL's credentials, and repeat
 * nothing of a URL that does not parse (it might hold a secret pasted in the wrong place).
 */
export function checkBaseUrl(url: string, options: { insecureHttp?: boolean } = {}): URL {
  // A host, a port and a path without `https://`: `localhost:8080` would parse, its host taken for a scheme.
  if (!url.includes('://') && /^[^\s/:]+(:\d*)?(\/\S*)?$/.test(url.trim())) {
    throw new UsageError('the service URL has no scheme: write it with https:// (or http:// for a local emulator), as in https://api.example.com/api/v1')
  }
  let parsed: URL
  try {
    parsed = new URL(url.trim())
  } catch {
    throw new UsageError('the service URL is not a valid URL: expected something like https://api.example.com/api/v1')
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UsageError(
      'the service URL must not contain a user name or password: put the token in SCANSYNC_API_TOKEN, not in the URL',
    )
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UsageError(
      `the service URL must start with https:// (or http:// for a local emulator), not ${parsed.protocol}//`,
    )
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new UsageError('the service URL must not contain a query (?…) or a fragment (#…)')
  }
  if (parsed.protocol === 'http:' && !options.insecureHttp && !isLoopbackHost(parsed.hostname)) {
    throw new UsageError(
      `refusing to send the API token over plain http to ${parsed.host}: use https:// or --insecure-http`,
    )
  }
  return parsed
}

/** The base URL's path without its trailing slash ("" for the root), to put in front of each request path. */
export function basePath(base: URL): string {
  return base.pathname.replace(/\/+$/, '')
}

/**
 * Checks a request path built by our own code (ids come from YAML files, so a careless caller
 * could otherwise smuggle a query, a fragment or `..` into the URL). Ids must be encoded with
 * encodeURIComponent by the caller.
 */
export function checkRequestPath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`
  // eslint-disable-next-line no-control-regex
  if (/[?#\\\s\u0000-\u001f\u007f]/.test(withSlash) || withSlash.startsWith('//')) {
    throw new UsageError(`invalid request path ${JSON.stringify(withSlash)}: encode ids with encodeURIComponent`)
  }
  if (withSlash.split('/').some((segment) => segment === '.' || segment === '..' || /^%2e(%2e)?$/i.test(segment) || /^(\.%2e|%2e\.)$/i.test(segment))) {
    throw new UsageError(`invalid request path ${JSON.stringify(withSlash)}: dot segments are not allowed`)
  }
  return withSlash
}

/** The path and query to send: base path + request path + `?query`. */
export function buildRequestTarget(base: URL, path: string, query?: Record<string, string | number>): string {
  let target = basePath(base) + checkRequestPath(path)
  if (query) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) params.append(key, String(value))
    const qs = params.toString()
    if (qs !== '') target += `?${qs}`
  }
  return target
}
