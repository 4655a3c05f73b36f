/**
 * Which proxy, if any, the requests to the service go through: the conventions of curl and of
 * Go's net/http, read once for the client's one origin.
 *
 * - `https_proxy`/`HTTPS_PROXY` for an https:// service, `http_proxy`/`HTTP_PROXY` for http://,
 *   `all_proxy`/`ALL_PROXY` for either; the lower-case name first; an empty value is unset.
 * - `no_proxy`/`NO_PROXY`: `*`, or host names and addresses separated by commas or spaces, each
 *   optionally with `:port`; `example.com`, `.example.com` and `*.example.com` all cover
 *   example.com's subdomains, the first two example.com itself too; `10.0.0.0/8` covers the
 *   addresses in that range, for a service named by its address.
 * - A loopback service (`localhost`, 127.0.0.0/8, `[::1]`: the emulator) never goes through a
 *   proxy, as in Go: a proxy could not reach it, and a test run must not leave the machine.
 * - A proxy without a scheme is `http://` (curl); only http:// and https:// proxies are taken.
 *
 * Read here, not by undici's EnvHttpProxyAgent: the run's environment is `io.env` (in-process runs
 * have their own), and an error must be able to say which proxy it went through.
 */
import { BlockList, isIP } from 'node:net'

import { isLoopbackHost } from './base-url.js'
import { UsageError } from './errors.js'

export interface Proxy {
  /** What undici's ProxyAgent connects to, credentials included. */
  url: URL
  /** `host:port`, to name it in messages: never its credentials. */
  shown: string
  /** The variable it came from. */
  variable: string
}

type Env = Readonly<Record<string, string | undefined>>

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 }

/** The proxy for requests to `service`, or undefined to connect directly. */
export function proxyFor(service: URL, env: Env): Proxy | undefined {
  if (isLoopbackHost(service.hostname)) return undefined
  const scheme = service.protocol === 'https:' ? 'https' : 'http'
  const found = firstSet(env, [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY'])
  if (found === undefined) return undefined
  if (bypassed(service, firstSet(env, ['no_proxy', 'NO_PROXY'])?.value ?? '')) return undefined
  return parseProxy(found.value.trim(), found.name)
}

function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]
    if (value !== undefined && value.trim() !== '') return { name, value }
  }
  return undefined
}

/** Whether NO_PROXY names the service's host (and port, where an entry gives one). */
export function bypassed(service: URL, noProxy: string): boolean {
  const host = service.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  const port = Number(service.port) || DEFAULT_PORTS[service.protocol] || 0
  const address = isIP(host)
  for (const raw of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (raw === '') continue
    if (raw === '*') return true
    if (raw.includes('/')) {
      if (address !== 0 && inRange(host, address, raw)) return true
      continue
    }
    const withPort = /^(.*):(\d+)$/.exec(raw)
    // An IPv6 address without brackets has colons of its own: a port only follows a bracket.
    const entryPort = withPort && (!withPort[1]!.includes(':') || withPort[1]!.endsWith(']')) ? Number(withPort[2]) : 0
    const name = (entryPort ? withPort![1]! : raw).replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
    if (entryPort && entryPort !== port) continue
    const domain = name.replace(/^\*?\./, '')
    if (domain === '') continue
    if (host === domain && !name.startsWith('*')) return true
    if (host.endsWith(`.${domain}`)) return true
  }
  return false
}

/** Whether an IP address lies in a range written `10.0.0.0/8` or `fd00::/8` (curl 7.86 and Go read these). */
function inRange(host: string, family: number, range: string): boolean {
  const [network = '', bits = ''] = range.replace(/^\[(.*)\](\/)/, '$1$2').split('/')
  const networkFamily = isIP(network)
  const prefix = Number(bits)
  if (networkFamily !== family || !/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false
  const list = new BlockList()
  list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6')
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6')
}

function parseProxy(value: string, variable: string): Proxy {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // The value is not repeated: a proxy URL may hold a password.
    throw new UsageError(`${variable} is not a valid proxy URL: expected something like http://proxy.example.com:3128`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${variable} names a ${url.protocol.slice(0, -1)} proxy: scansync goes through http:// and https:// proxies only (set NO_PROXY to the service's host to connect directly)`,
    )
  }
  if (url.hostname === '') throw new UsageError(`${variable} is not a valid proxy URL: it names no host`)
  // A user name and password go to the proxy decoded by undici, which threw "URI malformed" for a
  // password such as 50%off (a user name alone is sent as written where it does not decode,
  // proxyLoginWithoutPassword); the value is not repeated.
  if (url.password !== '' && (!decodable(url.username) || !decodable(url.password))) {
    throw new UsageError(`${variable} is not a valid proxy URL: its user name or password holds a % that is not followed by two hexadecimal digits (write a % as %25)`)
  }
  return { url, shown: url.host, variable }
}

/**
 * What of a proxy's URL is secret, as written and decoded, for the redaction: its password, or its
 * user name where that is the only credential (a token-style login, `http://TOKEN@proxy:3128`).
 */
export function proxySecrets(proxy: Proxy | undefined): string[] {
  const written = proxy === undefined ? '' : proxy.url.password !== '' ? proxy.url.password : proxy.url.username
  if (written === '') return []
  return [written, decoded(written)]
}

/**
 * The Proxy-Authorization of a proxy whose URL gives a user name without a password: undici sends
 * one only for a user name and a password together, and such a proxy answered 407 with no word why.
 */
export function proxyLoginWithoutPassword(proxy: Proxy | undefined): string | undefined {
  if (proxy === undefined || proxy.url.username === '' || proxy.url.password !== '') return undefined
  return `Basic ${Buffer.from(`${decoded(proxy.url.username)}:`).toString('base64')}`
}

function decodable(text: string): boolean {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    // Not valid percent-encoding: the text as written is all there is.
    return text
  }
}
