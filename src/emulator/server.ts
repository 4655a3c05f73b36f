import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isLoopbackHost } from '../client/base-url.js'
import { AFTER_HANDLING, DEFAULT_SLOW_MS, FaultPicker, faultResponse } from './faults.js'
import { RequestLog } from './request-log.js'
import { handleApi, isListPath, parseBody, type ApiContext, type ApiResponse } from './routes.js'
import { ADMIN_PREFIX, handleAdmin } from './admin.js'
import { redact } from './sensitive.js'
import { render } from './shape.js'
import { State } from './state.js'
import { FAULT_TYPES, type Emulator, type EmulatorKind, type EmulatorOptions, type EmulatorSeed, type FaultSpec, type RecordedRequest, type RequestTiming } from './types.js'
import { Clock, isObject, WEB_USER, type JsonObject } from './values.js'

export const DEFAULT_TOKEN = 'demo-token'

/** Request bodies above this are refused with 413. */
const BODY_LIMIT = 1024 * 1024

/** Starts the emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1'
  if (!options.allowRemote && !isLoopbackHost(host)) {
    throw new Error(`refusing to listen on ${host}: not a loopback address (allow it with --allow-remote)`)
  }
  const emulator = new HttpEmulator(options)
  await emulator.listen(host.replace(/^\[(.*)\]$/, '$1'), options.port ?? 0)
  return emulator
}

class HttpEmulator implements Emulator, ApiContext {
  url = ''
  state: State
  token: string
  readonly obfuscate: boolean
  readonly clock = new Clock()
  private latencyMs: number
  /** When each answer may go out: its request's arrival plus the latency. */
  private readonly answerAt = new WeakMap<ServerResponse, number>()
  private faults: FaultPicker
  private readonly faultSeed: number
  private readonly log = new RequestLog()
  private readonly server: Server
  private readonly timers = new Set<NodeJS.Timeout>()
  private closed = false

  constructor(options: EmulatorOptions) {
    this.token = options.token ?? DEFAULT_TOKEN
    this.obfuscate = options.obfuscate ?? false
    this.state = State.fromSeed(options.seed)
    this.latencyMs = checkLatency(options.latencyMs ?? 0)
    this.faultSeed = options.faultSeed ?? 1
    this.faults = new FaultPicker(checkFaults(options.faults ?? []), this.faultSeed)
    this.server = createServer((request, response) => this.onRequest(request, response))
  }

  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(port, host, () => {
        this.server.off('error', reject)
        resolve()
      })
    })
    const address = this.server.address() as AddressInfo
    this.url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  requests(): RecordedRequest[] {
    return this.log.all()
  }

  timings(): RequestTiming[] {
    return this.log.timings()
  }

  clearRequests(): void {
    this.log.clear()
  }

  mutate(kind: EmulatorKind, id: string, changes: object): void {
    if (!isObject(changes)) throw new Error('mutate: changes must be an object')
    this.state.write(kind, id, changes as JsonObject, { user: WEB_USER, now: this.clock.now() })
  }

  rotateToken(token: string): void {
    this.token = token
  }

  get(kind: EmulatorKind, id: string): unknown {
    const resource = render(this.state, kind, id)
    return resource && structuredClone(resource)
  }

  setFaults(spec: FaultSpec[]): void {
    this.faults = new FaultPicker(checkFaults(spec), this.faultSeed)
  }

  setLatency(ms: number): void {
    this.latencyMs = checkLatency(ms)
  }

  seed(data: EmulatorSeed): void {
    this.state = State.fromSeed(data)
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const method = request.method ?? 'GET'
    const target = request.url ?? '/'
    const q = target.indexOf('?')
    const path = q < 0 ? target : target.slice(0, q)
    const query = q < 0 ? {} : Object.fromEntries(new URLSearchParams(target.slice(q + 1)))
    const entry = this.log.start(method, path, query, request.headers)
    response.once('close', () => this.log.answered(entry))
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= BODY_LIMIT) chunks.push(chunk)
    })
    request.on('end', () => {
      const text = size > BODY_LIMIT ? undefined : chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8')
      // The latency counts from the request's arrival and the handling happens within it, so that
      // a request takes the latency asked for, not the latency plus the emulator's own work.
      if (this.latencyMs > 0) this.answerAt.set(response, performance.now() + this.latencyMs)
      this.respond(request, response, entry, text)
    })
  }

  private respond(request: IncomingMessage, response: ServerResponse, entry: RecordedRequest, text: string | undefined): void {
    try {
      this.handle(request, response, entry, text)
    } catch {
      // A request the emulator cannot handle is its fault, not a reason to stop serving the others.
      if (!response.headersSent) this.send(response, entry, { status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'A server error occurred.' }) })
      else response.destroy()
    }
  }

  private handle(request: IncomingMessage, response: ServerResponse, entry: RecordedRequest, text: string | undefined): void {
    if (this.closed) return
    if (text === undefined) return this.send(response, entry, tooLarge())
    const body = parseBody(text)
    if (body.kind === 'json') entry.body = redact(body.value)
    const fault = this.faults.active ? this.faults.pick(entry.method, entry.path) : undefined
    if (fault) entry.fault = fault.type
    if (fault && !AFTER_HANDLING.has(fault.type)) {
      // Refused before handling: nothing is applied.
      if (fault.type === 'drop') return this.after((this.answerAt.get(response) ?? 0) - performance.now(), () => request.socket.destroy())
      return this.send(response, entry, faultResponse(fault, isListPath(entry.path)))
    }
    // The admin endpoint (hand changes) sits beside the API, not inside it.
    const handle = entry.path.startsWith(`${ADMIN_PREFIX}/`) ? handleAdmin : handleApi
    const answer = handle(this, {
      method: entry.method,
      path: entry.path,
      query: entry.query,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body,
    })
    if (!fault) return this.send(response, entry, answer)
    this.sendLostOrLate(response, entry, fault, answer)
  }

  /** The request was handled (a write has landed); then its answer comes late, or not whole. */
  private sendLostOrLate(response: ServerResponse, entry: RecordedRequest, fault: FaultSpec, answer: ApiResponse): void {
    const wait = (this.answerAt.get(response) ?? 0) - performance.now()
    if (wait > 0 && fault.type !== 'slow') return this.after(wait, () => this.sendLostOrLate(response, entry, fault, answer))
    entry.status = answer.status
    if (fault.type === 'slow') return this.after(fault.delayMs ?? DEFAULT_SLOW_MS, () => this.send(response, entry, answer))
    const bytes = Buffer.from(answer.body)
    if (fault.type === 'drop-mid') {
      response.writeHead(answer.status, headersOf(answer, bytes.length))
      response.write(bytes.subarray(0, bytes.length >> 1), () => response.destroy())
    } else {
      // truncate: the whole body, announced longer than it is, then the connection ends.
      response.writeHead(answer.status, headersOf(answer, bytes.length + 64))
      response.write(bytes, () => response.socket?.end())
    }
  }

  private send(response: ServerResponse, entry: RecordedRequest, answer: ApiResponse): void {
    const wait = (this.answerAt.get(response) ?? 0) - performance.now()
    if (wait > 0) return this.after(wait, () => this.send(response, entry, answer))
    if (this.closed || response.destroyed) return
    entry.status = answer.status
    response.writeHead(answer.status, headersOf(answer, Buffer.byteLength(answer.body)))
    response.end(answer.body)
  }

  /** Runs `task` after `ms` (at once for 0), unless the emulator closes first. */
  private after(ms: number, task: () => void): void {
    if (ms <= 0) return task()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      task()
    }, ms)
    this.timers.add(timer)
  }
}

function headersOf(answer: ApiResponse, contentLength: number): Record<string, string | number> {
  return { 'content-type': answer.contentType, 'content-length': contentLength, ...answer.headers }
}

function tooLarge(): ApiResponse {
  return { status: 413, contentType: 'application/json', body: JSON.stringify({ detail: 'Request body too large.' }) }
}

function checkLatency(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`latency must be a number of milliseconds ≥ 0, not ${ms}`)
  return ms
}

function checkFaults(specs: FaultSpec[]): FaultSpec[] {
  for (const spec of specs) {
    if (!(FAULT_TYPES as readonly string[]).includes(spec.type)) throw new Error(`unknown fault type ${JSON.stringify(spec.type)}`)
    if (spec.share !== undefined && !(spec.share >= 0 && spec.share <= 1)) throw new Error(`fault share must be between 0 and 1, not ${spec.share}`)
  }
  return specs.map((spec) => ({ ...spec }))
}
