/**
 * Where list results wait to be taken (checked against the schema and compared), apart from the
 * requests that fetch them. Taking a page of answers costs more CPU than its round trip, and on
 * one thread that CPU, run as each answer arrives, kept the next requests from leaving: on
 * average 2.5 of 8 slots were busy. Here the results are taken in short slices (a few
 * milliseconds each) from setImmediate, so that between slices the event loop reads the answers
 * that arrived and sends the requests waiting for a slot. One queue for the whole run, pages in
 * the order they arrived whatever their kind.
 *
 * Fetched pages wait here, so the readers ask `room()` before fetching another: the results
 * held ahead of the comparing stay bounded whatever the size of the account.
 */
export class TakeQueue {
  private readonly pages: PendingPage[] = []
  private pending = 0
  private scheduled = false
  private readonly waitingForRoom: Array<() => void> = []

  constructor(
    /** Results that may wait to be taken before readers stop fetching. */
    private readonly maxPending = 5000,
    /** Milliseconds of taking before the event loop gets its turn. */
    private readonly sliceMs = 2,
  ) {}

  /** Takes each item in turn, never in the caller's tick; resolves once all are taken, rejects with the first error (the rest of the page is dropped). */
  add(items: readonly unknown[], take: (item: unknown) => void): Promise<void> {
    if (items.length === 0) return Promise.resolve()
    return new Promise((done, fail) => {
      this.pages.push({ items, next: 0, take, done, fail })
      this.pending += items.length
      this.schedule()
    })
  }

  /** Resolves once fewer than `maxPending` results wait. */
  room(): Promise<void> {
    if (this.pending < this.maxPending) return Promise.resolve()
    return new Promise((resolve) => this.waitingForRoom.push(resolve))
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.slice())
  }

  private slice(): void {
    this.scheduled = false
    const end = performance.now() + this.sliceMs
    while (this.pages.length > 0 && performance.now() < end) {
      const page = this.pages[0]!
      const stop = Math.min(page.items.length, page.next + 16)
      try {
        while (page.next < stop) {
          this.pending--
          page.take(page.items[page.next++])
        }
      } catch (error) {
        this.pages.shift()
        this.pending -= page.items.length - page.next
        page.fail(error)
        continue
      }
      if (page.next === page.items.length) {
        this.pages.shift()
        page.done()
      }
    }
    while (this.pending < this.maxPending && this.waitingForRoom.length > 0) this.waitingForRoom.shift()!()
    if (this.pages.length > 0) this.schedule()
  }
}

interface PendingPage {
  items: readonly unknown[]
  next: number
  take(item: unknown): void
  done(): void
  fail(error: unknown): void
}
