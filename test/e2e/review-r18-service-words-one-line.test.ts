// The service's words in an apply's outcome (a 400's field errors and detail) reach the report as
// the service wrote them. A line break in them started a new line of the report: in the shipped
// GitHub workflow (`scansync apply --auto-approve`, text format) the runner reads each line, spaces
// trimmed, for workflow commands, so a message holding `\n::add-mask::…` or `\n::error …::` (a
// value the service quotes back, or a proxy's page) became a command. The service's other words
// (a 5xx's detail) were already folded to one line; a 400's must be too.
import { describe, expect, it } from 'vitest'
import { cli, emulator, exampleConfig } from './helpers.js'
import { startProxy } from './proxy.js'

const WORDS = 'not valid\n::add-mask::valid\r\n  ::error file=a.yaml,line=1::injected\u2028::stop-commands::tok'

/** Lines a GitHub runner would take for workflow commands (it trims leading spaces). */
const commandLines = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('::'))

describe("a 400's words in the apply report", () => {
  it('stay on the outcome line in every format; in github only scansync writes commands', { timeout: 60_000 }, async () => {
    const em = await emulator()
    const proxy = await startProxy(em.url, async (request, forward) => {
      if (request.method === 'PATCH' && request.path === '/targets/2DZkoZH8WMEM/') {
        return { status: 400, body: JSON.stringify({ detail: WORDS, site: { name: [WORDS] }, [`x\n::warning::key`]: ['bad'] }) }
      }
      return forward()
    })
    const dir = exampleConfig()
    const text = await cli(em, dir, ['apply', '--auto-approve', '--kind', 'target', '--id', '2DZkoZH8WMEM'], { SCANSYNC_API_URL: proxy.url })
    expect(text.code).toBe(1)
    const failure = text.stdout.split('\n').find((line) => line.startsWith('✗ target 2DZkoZH8WMEM'))
    expect(failure).toContain('site.name: not valid ::add-mask::valid ::error file=a.yaml,line=1::injected ::stop-commands::tok')
    expect(commandLines(text.stdout + text.stderr)).toEqual([])

    const github = await cli(em, dir, ['apply', '--auto-approve', '--kind', 'target', '--id', '2DZkoZH8WMEM', '--format', 'github'], { SCANSYNC_API_URL: proxy.url })
    expect(github.code).toBe(1)
    expect(commandLines(github.stdout + github.stderr).map((line) => line.slice(0, line.indexOf(' ')))).toEqual(['::error'])

    const json = await cli(em, dir, ['apply', '--auto-approve', '--kind', 'target', '--id', '2DZkoZH8WMEM', '--format', 'json'], { SCANSYNC_API_URL: proxy.url })
    const error = (JSON.parse(json.stdout) as { changes: Array<{ error?: string }> }).changes[0]!.error!
    expect(error).not.toMatch(/[\r\n\u2028]/)
  })
})
