/** What reading needs of the HTTP client. */
export interface Requester {
  request<T = unknown>(method: 'GET', path: string, options?: { query?: Record<string, string | number>; resource?: string }): Promise<T>
  /** The characters of answer text the client has read; without it, the reader measures the answers itself. */
  readonly stats?: { readonly bytesRead: number }
}
