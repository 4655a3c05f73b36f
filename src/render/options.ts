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
  /**
   * The run's redaction (src/core/redaction.ts), applied to the texts of the rows before a format
   * escapes them (a secret written `Sec\_ret` in Markdown or `Val%25ue` in an annotation is no
   * longer the text the output step looks for) or cuts them short (a clipped value could end in
   * half a secret). The output step still redacts the whole of what is written.
   */
  redact?: (text: string) => string
  /**
   * Whether a text holds a secret of the run that the output step leaves in texts (too short or
   * too common to replace: Redaction.holds): a field path whose list keys hold one shows them as
   * (sensitive).
   */
  holds?: (text: string) => boolean
  /**
   * The name an annotation of the github format gives a file (annotationPaths in github.ts):
   * relative to the repository root on a GitHub runner. Default: the file as the positions name it.
   */
  annotationFile?: (file: string) => string
}

export const GITHUB_COMMENT_LIMIT = 65_536
