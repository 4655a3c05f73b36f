/** Base of every error scansync raises on purpose: its message is fit to print as is. */
export class ScansyncError extends Error {
  override name = 'ScansyncError'
}
