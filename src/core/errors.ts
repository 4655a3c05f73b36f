/**
 * The base of scansync's error hierarchy. Every message is fit to print as is: it is built
 * from redacted text and names the resource when the caller gave one.
 */

/** Base of everything scansync throws on purpose. */
export class ScansyncError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** A mistake in how scansync was invoked or configured (bad base URL, bad option). */
export class UsageError extends ScansyncError {}
