/** Character codes the loader's scans of YAML text compare with (`text.charCodeAt(i)`). */
export const TAB = 0x09
export const LF = 0x0a
export const CR = 0x0d
export const SPACE = 0x20
export const DQUOTE = 0x22
export const HASH = 0x23
export const SQUOTE = 0x27
export const PLUS = 0x2b
export const COMMA = 0x2c
export const MINUS = 0x2d
export const COLON = 0x3a
export const GREATER = 0x3e
export const BRACKET_OPEN = 0x5b
export const BRACKET_CLOSE = 0x5d
export const BRACE_OPEN = 0x7b
export const PIPE = 0x7c
export const BRACE_CLOSE = 0x7d
