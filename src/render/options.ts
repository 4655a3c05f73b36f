export type Format = 'text' | 'json' | 'markdown' | 'github'

export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'github']

/**
 * The wording: `plan` ("Plan: 3 to change, 41 unchanged."), `drift` ("Drift: 3 resources differ
 * from the configuration, 41 in sync."). `apply` words a plan shown before it is applied as a
 * plan; an apply report is always worded as one.
 */
export type Mode = 'plan' | 'drift' | 'apply'

export interface RenderOptions {
  /** ANSI colours in the text format (decide with colorEnabled from src/cli/io.ts). Default false. */
  color?: boolean
  /** Default `plan`. */
  mode?: Mode
  /** The most characters the markdown format may print. Default 65,536 (a GitHub comment). */
  markdownLimit?: number
}

export const GITHUB_COMMENT_LIMIT = 65_536
