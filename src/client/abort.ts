/**
 * Abort plumbing. Thousands of requests may share one signal (the caller's interrupt signal,
 * the client's own "closing" signal); one listener per request would trip Node's
 * MaxListenersExceededWarning, so each source signal gets a single listener that fans out.
 */

const followers = new WeakMap<AbortSignal, Set<AbortController>>()

/** Aborts `target` with `source`'s reason when `source` aborts; returns the function that stops following. */
export function followAbort(source: AbortSignal | undefined, target: AbortController): () => void {
  if (!source) return () => {}
  if (source.aborted) {
    target.abort(source.reason)
    return () => {}
  }
  let set = followers.get(source)
  if (!set) {
    const created = new Set<AbortController>()
    followers.set(source, created)
    source.addEventListener(
      'abort',
      () => {
        followers.delete(source)
        for (const controller of created) controller.abort(source.reason)
      },
      { once: true },
    )
    set = created
  }
  const members = set
  members.add(target)
  return () => {
    members.delete(target)
  }
}

/** `promise`, unless `signal` aborts first: then the signal's reason. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {})
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
