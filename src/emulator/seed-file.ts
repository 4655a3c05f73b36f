import { readFile, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { State } from './state.js'
import type { EmulatorSeed } from './types.js'
import { isObject } from './values.js'

const SEED_KEYS = ['teams', 'agents', 'targets', 'assets']

/**
 * Reads seed data from a .json, .yaml or .yml file; throws an Error naming the file and the problem
 * (a resource in a shape the service never answers included).
 */
export async function readSeedFile(path: string): Promise<EmulatorSeed> {
  // A directory, a FIFO or a device is refused before it is opened: reading a FIFO with no writer
  // never ends (and holds the process past Ctrl-C), /dev/zero never stops growing.
  let text: string
  try {
    const info = await stat(path)
    if (info.isDirectory()) throw new Error('is a directory; name the seed file')
    if (!info.isFile()) throw new Error('not a regular file (a device, a pipe or a socket); name the seed file')
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(`${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code !== undefined ? `cannot read it (${code})` : (error as Error).message}`)
  }
  let data: unknown
  try {
    if (extname(path).toLowerCase() === '.json') data = JSON.parse(text)
    else {
      const { parse } = await import('yaml')
      data = parse(text)
    }
  } catch (error) {
    throw new Error(`${path}: not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`)
  }
  if (!isObject(data)) throw new Error(`${path}: the seed must be a mapping with teams, agents, targets and assets`)
  for (const key of Object.keys(data)) {
    if (!SEED_KEYS.includes(key)) throw new Error(`${path}: unknown key "${key}" (expected ${SEED_KEYS.join(', ')})`)
    if (!Array.isArray(data[key])) throw new Error(`${path}: ${key} must be a list`)
  }
  // Built once here to refuse, with the file's name, an entry the service would never answer.
  try {
    State.fromSeed(data as EmulatorSeed, { checked: true })
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message.replace(/^seed: /, '')}`)
  }
  return data as EmulatorSeed
}
