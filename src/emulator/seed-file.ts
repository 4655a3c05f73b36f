import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { EmulatorSeed } from './types.js'
import { isObject } from './values.js'

const SEED_KEYS = ['teams', 'agents', 'targets', 'assets']

/** Reads seed data from a .json, .yaml or .yml file; throws an Error naming the file and the problem. */
export async function readSeedFile(path: string): Promise<EmulatorSeed> {
  const text = await readFile(path, 'utf8')
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
  return data as EmulatorSeed
}
