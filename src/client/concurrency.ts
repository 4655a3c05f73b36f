/**
 * Bounded, adaptive concurrency for HTTP attempts, on p-limit.
 *
 * Additive increase, multiplicative decrease: a 429 halves the allowed concurrency (minimum 1)
 * and each run of `current` successes gives one slot back, up to the configured parallelism.
 * Only a 429 to an attempt started after the last decrease counts, so that a burst of 429s
 * answering the same wave of requests halves once, not once per answer.
 *
 * Each attempt takes a slot, not each request: a request waiting out a backoff does not hold
 * one, so a throttled request does not starve the others.
 */
import pLimit, { type LimitFunction } from 'p-limit'

export class AdaptiveConcurrency {
  readonly max: number
  private readonly limit: LimitFunction
  private current: number
  private epoch = 0
  private successes = 0

  constructor(max: number) {
    this.max = max
    this.current = max
    this.limit = pLimit(max)
  }

  /** The concurrency allowed now. */
  get allowed(): number {
    return this.current
  }

  /** Runs `task` in a slot; `task` receives the epoch to hand back to `throttled`. */
  run<T>(task: (epoch: number) => Promise<T>): Promise<T> {
    return this.limit(() => task(this.epoch))
  }

  /** A 429 came back for an attempt started in `epoch`. */
  throttled(epoch: number): void {
    if (epoch !== this.epoch) return
    this.epoch++
    this.successes = 0
    this.set(Math.max(1, Math.floor(this.current / 2)))
  }

  /** An attempt got a 2xx. */
  succeeded(): void {
    if (this.current >= this.max) return
    this.successes++
    if (this.successes >= this.current) {
      this.successes = 0
      this.set(this.current + 1)
    }
  }

  private set(value: number): void {
    this.current = value
    this.limit.concurrency = value
  }
}
