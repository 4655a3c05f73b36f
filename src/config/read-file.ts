import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { MAX_FILE_BYTES } from './limits.js'

/** "2.5 MB". */
export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/**
 * A configuration file's bytes, or why it is not read: not a regular file, too large. Read
 * synchronously: a file of the page cache takes a fraction of a millisecond, where each of the
 * five steps of an asynchronous read waited for a thread of libuv's pool and then for the main
 * thread (a few milliseconds of idle main thread per file, on a machine whose cores a plan keeps
 * busy). A caller reading many files gives the event loop a turn between them.
 */
export function readConfigFile(path: string): { bytes: Buffer } | { problem: string } {
  // O_NONBLOCK: a FIFO put in the file's place since its size was read opens without waiting
  // for a writer (and is then refused as not regular); for a regular file it changes nothing.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const info = fstatSync(fd)
    // A device, a FIFO or a socket (a link to /dev/zero, say) would never end, or never start.
    if (!info.isFile()) return { problem: NOT_REGULAR }
    if (info.size > MAX_FILE_BYTES) return { problem: tooLarge(info.size) }
    // Read up to one byte past the limit: a file growing while it is read is caught too.
    const buffer = Buffer.alloc(Math.min(info.size, MAX_FILE_BYTES) + 1)
    let length = 0
    for (;;) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null)
      if (bytesRead === 0) break
      length += bytesRead
      if (length === buffer.length) {
        if (length > MAX_FILE_BYTES) return { problem: tooLarge(length) }
        break
      }
    }
    return { bytes: buffer.subarray(0, length) }
  } finally {
    closeSync(fd)
  }
}

export const NOT_REGULAR = 'not a regular file (a device, a pipe or a socket); a configuration file must be one'

const tooLarge = (size: number) =>
  `the file is ${size > MAX_FILE_BYTES + 1 ? megabytes(size) : 'more than ' + megabytes(MAX_FILE_BYTES)}, more than the limit of ${megabytes(MAX_FILE_BYTES)} for one file: split it into several files (a configuration may hold any number)`
