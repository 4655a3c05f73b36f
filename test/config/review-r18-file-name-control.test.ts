// A file name may hold other control characters than a line break: a pull request can add
// `$'x\e[8my.yaml'` (ESC [8m conceals the rest of the line, ESC [2K erases it). The line-break fix
// refused only line breaks, so validate and plan printed such a name as it is, and the terminal (or
// the CI log) acted on the sequence in the error naming it. Such a file is now refused, unread, in
// one error line naming it with its control characters escaped.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const NAME = 'x\u001b[2K\u001b[8my.yaml'

describe('a configuration file whose name holds a control character', () => {
  it('is refused in one error line, the name escaped, no control character printed (validate, plan --format github)', async () => {
    const dir = temporaryDirectory('scansync-r18-names-', { 'config/ok.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ok\n' })
    writeFileSync(join(dir, 'config', NAME), 'targets:\n  - id: ZZZZZZZZZZZZ\n    bogus: 1\n')
    for (const args of [['validate', 'config'], ['plan', 'config', '--format', 'github']]) {
      const run = await runCli(args, { cwd: dir, env: { SCANSYNC_API_URL: 'http://127.0.0.1:9/', SCANSYNC_API_TOKEN: 'tok' } })
      expect(run.code, args[0]).toBe(1)
      expect(run.stderr + run.stdout, args[0]).not.toContain('\u001b')
      expect(run.stderr, args[0]).toContain('config/x\\u001b[2K\\u001b[8my.yaml')
      expect(run.stderr, args[0]).toContain('the path holds a control character (\\u001b)')
      // Unread: its own error (an unknown field) is not reported.
      expect(run.stderr, args[0]).not.toContain('bogus')
    }
  })
})
