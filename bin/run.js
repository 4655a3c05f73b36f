#!/usr/bin/env node
import { flush, handle, run } from '@oclif/core'

/**
 * What an oclif error may not repeat: the value of a flag that does not exist (`--token=…` is
 * refused: the token is read only from SCANSYNC_API_TOKEN, and a value typed there is likely
 * one), and the token itself.
 */
function scrub(message) {
  let text = String(message)
  if (/Nonexistent flags?:/.test(text)) text = text.replace(/(^|[\s,:])(--?[\w-]+)=[^\s,]*/g, '$1$2=(redacted)')
  const token = process.env.SCANSYNC_API_TOKEN
  if (token) text = text.split(token).join('(redacted)')
  return text
}

try {
  await run(process.argv.slice(2), import.meta.url)
  await flush()
} catch (error) {
  // oclif exits 2 on a mistyped command or flag; in scansync's contract 2 means "changes" or
  // "drift found", so a usage error must not look like one to CI.
  if (error?.oclif?.exit === 2) error.oclif.exit = 1
  if (error instanceof Error) {
    error.message = scrub(error.message)
    if (error.stack) error.stack = scrub(error.stack)
  }
  // Usage errors in scansync's one style (`Error: …`, a suggestion, no usage dump).
  const { explainUsageError } = await import('../dist/cli/usage-error.js')
  const text = explainUsageError(error, process.argv.slice(2))
  if (text === undefined) await handle(error)
  else {
    process.stderr.write(text)
    process.exitCode = 1
  }
}
