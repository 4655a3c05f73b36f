/** The contract's exit codes. */
export const EXIT = {
  ok: 0,
  error: 1,
  /** plan --detailed-exitcode with changes; drift found. */
  changes: 2,
  interrupted: 130,
} as const
