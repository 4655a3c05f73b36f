/**
 * A URL as plans compare URLs: scheme and host lower-cased, default port dropped, an empty path
 * written "/". Anything that is not an http(s) URL stays as it is. Here in core because the
 * configuration checks (two targets without id and one URL) compare URLs as the plans do.
 */
export function comparableUrl(value: string): string {
  if (value === '') return value
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return value
    return parsed.href
  } catch {
    return value
  }
}
