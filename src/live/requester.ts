type RequestOptions = { query?: Record<string, string | number>; resource?: string }

/** What reading needs of the HTTP client. */
export interface Requester {
  request<T = unknown>(method: 'GET', path: string, options?: RequestOptions): Promise<T>
  /** The characters of answer text the client has read; without it, the reader measures the answers itself. */
  readonly stats?: { readonly bytesRead: number }
  /**
   * The answer to `request(method, path, options)` read ahead (ListPrefetch), handed over in its
   * place: a requester that counts its requests (the read tally) counts it as one sent now, so
   * that a run reports the same whether its pages were read ahead or not.
   */
  readAhead?<T = unknown>(answer: Promise<T>, method: 'GET', path: string, options?: RequestOptions): Promise<T>
}
