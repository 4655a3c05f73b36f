// A file name may hold a line break (git stores it; `touch $'a\nb.yaml'` makes one). Every line
// that named such a file was split in two: `validate` printed `config/a` on one line and
// `::stop-commands::x` on the next, which a GitHub runner reads as a workflow command (the example
// workflow prints the errors to the log), silencing every annotation after it; plan's "declared
// at" and the error lines broke the contract's one problem, one line. Such a file is now refused,
// unread, with one error line naming it with its line breaks escaped.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { temporaryDirectory } from '../helpers/emulator.js'

const NAME = 'a\n::stop-commands::x\nb.yaml'

describe('a configuration file whose name holds a line break', () => {
  it('is refused in one error line, never printed with the break (validate, plan)', async () => {
    const dir = temporaryDirectory('scansync-r18-names-', { 'config/ok.yaml': 'agents:\n  - id: 3kLx8Qy7Pb2m\n    name: ok\n' })
    writeFileSync(join(dir, 'config', NAME), 'targets:\n  - id: ZZZZZZZZZZZZ\n    bogus: 1\n')
    for (const args of [['validate', 'config'], ['plan', 'config']]) {
      const run = await runCli(args, { cwd: dir, env: { SCANSYNC_API_URL: 'http://127.0.0.1:9/', SCANSYNC_API_TOKEN: 'tok' } })
      expect(run.code, args[0]).toBe(1)
      const lines = run.stderr.split('\n')
      expect(lines, args[0]).toContain('config/a\\n::stop-commands::x\\nb.yaml:1:1: the path holds a line break, which would split every line that names it (errors, plans, annotations); it was not read: rename it')
      expect(lines.filter((line) => line.startsWith('::')), args[0]).toEqual([])
      // Unread: its own error (an unknown field) is not reported.
      expect(run.stderr, args[0]).not.toContain('bogus')
    }
  })
})
