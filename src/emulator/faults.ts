import { FAULT_TYPES, type FaultSpec, type FaultType } from './types.js'

/** Faults that strike after the request was handled (a write has landed): the client cannot tell. */
export const AFTER_HANDLING: ReadonlySet<FaultType> = new Set(['drop-mid', 'truncate', 'slow'])

export const DEFAULT_SLOW_MS = 10_000

const KEYS = ['method', 'path', 'retry-after', 'ms'] as const
const SYNTAX = '<type>[:<share>|:x<count>][,method=M][,path=/prefix/][,retry-after=S][,ms=N]'

/**
 * The CLI form of a fault: `<type>[:<share>|:x<count>][,method=M][,path=/targets/][,retry-after=S][,ms=N]`,
 * e.g. `429:0.2,retry-after=1`, `503:x3`, `slow:x1,ms=5000`, `drop,method=PATCH`.
 * Without a share or count every matching request is faulted.
 */
export function parseFaultSpec(text: string): FaultSpec {
  const bad = (why: string): never => {
    throw new Error(`invalid fault "${text}": ${why} (expected ${SYNTAX})`)
  }
  // An HTTP date holds commas: split only before `key=`.
  const [head, ...options] = text.trim().split(/,(?=\s*[A-Za-z-]+=)/)
  const [type, amount, ...more] = head.split(':')
  if (more.length > 0) bad('more than one ":"')
  if (!(FAULT_TYPES as readonly string[]).includes(type)) bad(`unknown type "${type}"; types are ${FAULT_TYPES.join(', ')}`)
  const spec: FaultSpec = { type: type as FaultType }
  if (amount !== undefined) {
    if (/^x\d+$/.test(amount)) {
      spec.count = Number(amount.slice(1))
      if (spec.count < 1) bad('the count must be at least 1')
    } else if (/^(\d+(\.\d*)?|\.\d+)$/.test(amount)) {
      spec.share = Number(amount)
      if (!(spec.share >= 0 && spec.share <= 1)) bad('the share must be between 0 and 1')
    } else bad(`"${amount}" is neither a share (0..1) nor a count (xN)`)
  }
  for (const option of options) {
    const eq = option.indexOf('=')
    const key = option.slice(0, eq).trim()
    const value = option.slice(eq + 1).trim()
    if (!(KEYS as readonly string[]).includes(key)) bad(`unknown option "${key}"; options are ${KEYS.join(', ')}`)
    if (value === '') bad(`${key} needs a value`)
    if (key === 'method') {
      if (!/^[A-Za-z]+$/.test(value)) bad(`"${value}" is not an HTTP method`)
      spec.method = value.toUpperCase()
    } else if (key === 'path') {
      if (!value.startsWith('/')) bad('the path must start with /')
      spec.path = value
    } else if (key === 'retry-after') {
      if (spec.type !== '429' && spec.type !== '503') bad('retry-after applies to 429 and 503 only')
      if (/^\d+$/.test(value)) spec.retryAfter = Number(value)
      else if (!Number.isNaN(Date.parse(value))) spec.retryAfter = value
      else bad(`retry-after "${value}" is neither seconds nor an HTTP date`)
    } else if (key === 'ms') {
      if (spec.type !== 'slow') bad('ms applies to slow only')
      if (!/^\d+$/.test(value)) bad(`ms "${value}" is not a whole number of milliseconds`)
      spec.delayMs = Number(value)
    }
  }
  return spec
}

/**
 * Picks the fault of each request: the first spec that matches it and fires. A spec with a
 * count fires on its first N matching requests; one with a share fires on a pseudo-random
 * share of them, decided by the seed and the request's rank among the matching ones, so the
 * same traffic gives the same faults.
 */
export class FaultPicker {
  private readonly matched: number[]

  constructor(
    private readonly specs: readonly FaultSpec[],
    private readonly seed: number,
  ) {
    this.matched = specs.map(() => 0)
  }

  get active(): boolean {
    return this.specs.length > 0
  }

  pick(method: string, path: string): FaultSpec | undefined {
    for (let i = 0; i < this.specs.length; i++) {
      const spec = this.specs[i]
      if (spec.method !== undefined && spec.method.toUpperCase() !== method) continue
      if (spec.path !== undefined && !path.startsWith(spec.path)) continue
      const rank = this.matched[i]++
      if (spec.count !== undefined && rank >= spec.count) continue
      if (spec.share !== undefined && draw(this.seed, i, rank) >= spec.share) continue
      return spec
    }
    return undefined
  }
}

/** A number in [0, 1) from three integers. */
function draw(seed: number, index: number, rank: number): number {
  return mix(mix(mix(seed >>> 0) ^ index) ^ rank) / 2 ** 32
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d)
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b)
  return (x ^ (x >>> 16)) >>> 0
}

export interface CannedResponse {
  status: number
  contentType: string
  body: string
  headers?: Record<string, string>
}

const DETAIL: Record<string, [number, string]> = {
  '429': [429, 'Request was throttled.'],
  '500': [500, 'A server error occurred.'],
  '502': [502, 'Bad gateway.'],
  '503': [503, 'Service temporarily unavailable, try again later.'],
  '504': [504, 'Gateway timeout.'],
}

const EDGE_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>edge-proxy</center>
</body>
</html>
`

/** The answer of a fault that replaces the response (429, 5xx, not-resource). */
export function faultResponse(spec: FaultSpec, listRoute: boolean): CannedResponse {
  if (spec.type === '502-html') return { status: 502, contentType: 'text/html', body: EDGE_502 }
  if (spec.type === 'not-resource') return { status: 200, contentType: 'application/json', body: listRoute ? '[]' : '{"results":[]}' }
  const [status, detail] = DETAIL[spec.type] ?? [500, 'A server error occurred.']
  const headers: Record<string, string> = {}
  let text = detail
  if (spec.retryAfter !== undefined && (spec.type === '429' || spec.type === '503')) {
    headers['retry-after'] = String(spec.retryAfter)
    if (spec.type === '429' && typeof spec.retryAfter === 'number') {
      text = `Request was throttled. Expected available in ${spec.retryAfter} second${spec.retryAfter === 1 ? '' : 's'}.`
    }
  }
  return { status, contentType: 'application/json', body: JSON.stringify({ detail: text }), headers }
}
