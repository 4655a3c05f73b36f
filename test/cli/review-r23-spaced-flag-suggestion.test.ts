// A flag and its value passed as one word (`FLAGS="--format json"; scansync plan "$FLAGS"`, a CI
// step's quoted variable) is a flag that does not exist: the usage error names it with its value
// (redacted) and said which flag was meant ("did you mean --format?"), the hint that tells the
// word is a real flag glued to its value. Once the value was printed as `(redacted)`, the
// suggestion was worked out from `--format (redacted)` and was no longer given.
import { describe, expect, it } from 'vitest'
import { spawnCli } from '../helpers/cli.js'

describe.concurrent('a flag and its value typed as one word', () => {
  it.each([
    [['plan', '--format json'], 'Error: unknown flag --format (redacted) (did you mean --format?). See scansync plan --help.\n'],
    [['drift', '--kind\ttarget'], 'Error: unknown flag --kind\t(redacted) (did you mean --kind?). See scansync drift --help.\n'],
    [['audit', '--fromat json'], 'Error: unknown flag --fromat (redacted) (did you mean --format?). See scansync audit --help.\n'],
  ])('%j: the flag meant is suggested, exit 1', async (args, expected) => {
    const run = await spawnCli(args)
    expect(run.stderr).toBe(expected)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(1)
  })
})
