/** Base of every error scansync raises on purpose (its message is fit to print as is), and bad usage. */
export { ScansyncError, UsageError } from './client/errors.js'
