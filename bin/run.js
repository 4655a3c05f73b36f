#!/usr/bin/env node
import { flush, handle, run } from '@oclif/core'
import { Redaction } from '../dist/core/redaction.js'

/**
 * What an oclif error may not repeat: the value of a flag that does not exist (`--token=…` is
 * refused: the token is read only from SCANSYNC_API_TOKEN, and a value typed there is likely
 * one), and, through the one output step, the token itself and any control character.
 */
function printable(message, redaction) {
  let text = String(message)
  if (/Nonexistent flags?:/.test(text)) text = text.replace(/(^|[\s,:])(--?[\w-]+)=[^\s,]*/g, '$1$2=(redacted)')
  return redaction.output(text)
}

try {
  await run(process.argv.slice(2), import.meta.url)
  await flush()
} catch (error) {
  // oclif exits 2 on a mistyped command or flag; in scansync's contract 2 means "changes" or
  // "drift found", so a usage error must not look like one to CI.
  if (error?.oclif?.exit === 2) error.oclif.exit = 1
  if (error instanceof Error) {
    const redaction = new Redaction(process.env.SCANSYNC_API_TOKEN)
    error.message = printable(error.message, redaction)
    if (error.stack) error.stack = printable(error.stack, redaction)
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
