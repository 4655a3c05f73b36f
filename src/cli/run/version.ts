import { readFileSync } from 'node:fs'

let version: string | undefined

/** The package's version, for the User-Agent and saved plans. */
export function appVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version
  return version
}
