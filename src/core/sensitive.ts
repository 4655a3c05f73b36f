/** What every output shows in place of a sensitive value. */
export const SENSITIVE = '(sensitive)'
