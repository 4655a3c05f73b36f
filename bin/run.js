#!/usr/bin/env node
import { flush, handle, run } from '@oclif/core'

try {
  await run(process.argv.slice(2), import.meta.url)
  await flush()
} catch (error) {
  // oclif exits 2 on a mistyped command or flag; in scansync's contract 2 means "changes" or
  // "drift found", so a usage error must not look like one to CI.
  if (error?.oclif?.exit === 2) error.oclif.exit = 1
  await handle(error)
}
