// `scansync audit --format json` prints {format_version, violations, summary: {checked, rules,
// errors, warnings}}, a shape scripts read, but no schema described it: plan.schema.json (whose
// text mentions audit) requires `changes`, which audit's document has not. schemas/ is the single
// source of truth for shapes: schemas/audit.schema.json now describes what audit prints. Every
// document the real audit prints here, over declared and undeclared resources, with no violation,
// warnings only, errors, and a rule of each kind, is valid against it; and the markdown and github
// outputs of the same audit report the same counts and the same resources.
import { describe, expect, it } from 'vitest'
import { cli, sharedEmulator, tempdir } from '../e2e/helpers.js'
import { AGENT_IN_TEAM, AUDITED_TARGETS, BLACKOUT_ENABLED } from './audit-rules.js'
import { createAjv } from '../../src/schema/ajv.js'
import { validator } from '../../src/schema/validators.js'

const ajv = createAjv()
const validateAudit = (document: unknown): boolean => {
  const validate = ajv.getSchema('audit.schema.json')
  expect(validate, 'schemas/audit.schema.json').toBeTypeOf('function')
  const valid = validate!(document) as boolean
  expect(validate!.errors ?? [], JSON.stringify(validate!.errors)).toEqual([])
  // The validators list scansync compiles holds it too, as it holds plan's.
  expect(validator('audit')(document)).toBe(true)
  return valid
}

/** Declared: the staging target (its blackout window enabled by the apply), the payments API (not), two assets. */
const DECLARED = `${AUDITED_TARGETS}assets:
  - id: 8YuIoP3lKjHg
    state: ACTIVE
  - id: 6WsXdC2rFvTg
    state: ARCHIVED
`

const BLACKOUT = `
${BLACKOUT_ENABLED}`
const AGENT_IN_TEAM_RULE = `
${AGENT_IN_TEAM}`
const ASSET_NOT_ARCHIVED = `
  - name: asset-not-archived
    kind: asset
    require: {properties: {state: {enum: [ACTIVE, NEW, HIDDEN]}}}
`
const AGENT_NAMED = `
  - name: agent-named
    kind: agent
    require: {required: [name]}
`
const ASSET_HAS_STATE = `
  - name: asset-has-state
    kind: asset
    require: {required: [state]}
    level: warning
`

interface Entry {
  policy: string
  level: string
  kind: string
  id: string
  file: string | null
  line: number | null
}

interface Case {
  name: string
  rules: string[]
  code: number
  summary: { checked: number; rules: number; errors: number; warnings: number }
  violations: [policy: string, level: string, kind: string, id: string, file: string | null, line: number | null][]
}

const CASES: Case[] = [
  { name: 'no violation', rules: [AGENT_NAMED, ASSET_HAS_STATE], code: 0, summary: { checked: 7, rules: 2, errors: 0, warnings: 0 }, violations: [] },
  {
    name: 'warnings only',
    rules: [AGENT_IN_TEAM_RULE],
    code: 0,
    summary: { checked: 3, rules: 1, errors: 0, warnings: 1 },
    violations: [['agent-in-team', 'warning', 'agent', '6NbVcX4zLkJh', null, null]],
  },
  {
    name: 'errors, declared and undeclared',
    rules: [BLACKOUT],
    code: 2,
    summary: { checked: 4, rules: 1, errors: 2, warnings: 0 },
    violations: [
      ['blackout-enabled', 'error', 'target', '5HnBvC3xZaQw', 'targets.yaml', 4],
      ['blackout-enabled', 'error', 'target', '9XcVbN5mQwEr', null, null],
    ],
  },
  {
    name: 'a rule of each kind',
    rules: [BLACKOUT, ASSET_NOT_ARCHIVED, AGENT_IN_TEAM_RULE],
    code: 2,
    summary: { checked: 11, rules: 3, errors: 3, warnings: 1 },
    violations: [
      ['blackout-enabled', 'error', 'target', '5HnBvC3xZaQw', 'targets.yaml', 4],
      ['asset-not-archived', 'error', 'asset', '6WsXdC2rFvTg', 'targets.yaml', 9],
      ['blackout-enabled', 'error', 'target', '9XcVbN5mQwEr', null, null],
      ['agent-in-team', 'warning', 'agent', '6NbVcX4zLkJh', null, null],
    ],
  },
]

const em = sharedEmulator()

describe.concurrent('audit --format json is described by schemas/audit.schema.json', () => {
  for (const c of CASES) {
    it(`${c.name}: valid, and markdown and github report the same counts and resources`, async () => {
      const dir = tempdir({ 'targets.yaml': DECLARED, 'policies.yaml': `policies:${c.rules.join('')}` })
      const json = await cli(em(), dir, ['audit', '--format', 'json'])
      expect(json.stderr).toBe('')
      expect(json.code).toBe(c.code)
      const document = JSON.parse(json.stdout)
      expect(validateAudit(document)).toBe(true)
      expect(document.summary).toEqual(c.summary)
      const entries = document.violations as Entry[]
      expect(entries.map((v) => [v.policy, v.level, v.kind, v.id, v.file, v.line])).toEqual(c.violations)

      const { checked, rules, errors, warnings } = c.summary
      const total = errors + warnings
      const counts = total === 0 ? 'no policy violations.' : `${total} policy ${total === 1 ? 'violation' : 'violations'}: ${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}.`
      const summaryLine = `Audit: ${checked} live ${checked === 1 ? 'resource' : 'resources'} checked against ${rules} ${rules === 1 ? 'rule' : 'rules'}; ${counts}`

      const markdown = await cli(em(), dir, ['audit', '--format', 'markdown'])
      expect(markdown.code).toBe(c.code)
      expect(markdown.stdout.startsWith(`### scansync audit\n\n**${summaryLine}**\n`), markdown.stdout).toBe(true)
      const rows = markdown.stdout.split('\n').filter((l) => /^\| [✗⚠]/.test(l))
      // Errors first, then warnings, as the table orders them.
      const ordered = [...entries.filter((v) => v.level === 'error'), ...entries.filter((v) => v.level !== 'error')]
      expect(rows.map((row) => row.split(' | ').slice(0, 4).join(' | '))).toEqual(
        ordered.map(
          (v) =>
            `| ${v.level === 'error' ? '✗ error' : '⚠ warning'} | <code>${v.policy.replace(/_/g, '\\_')}</code> | ${v.kind} <code>${v.id}</code> | ${v.file === null ? 'declared in no file' : `${v.file}:${v.line}`}`,
        ),
      )

      const github = await cli(em(), dir, ['audit', '--format', 'github'])
      expect(github.code).toBe(c.code)
      const lines = github.stdout.trimEnd().split('\n')
      expect(lines.at(-1)).toBe(summaryLine)
      const annotations = lines.slice(0, -1)
      expect(annotations).toHaveLength(entries.length)
      annotations.forEach((annotation, i) => {
        const v = entries[i]!
        expect(annotation).toMatch(new RegExp(`^::${v.level} file=[^,]+,line=\\d+,col=\\d+,title=scansync policy ${v.policy}::${v.kind} ${v.id}: `))
        if (v.file !== null) expect(annotation).toContain(`file=${v.file},line=${v.line},`)
        else expect(annotation).toMatch(/ \(declared in no file\)$/)
      })
    })
  }

  it('is exact: a plan document, or an audit document with a field it does not print, is refused', async () => {
    const dir = tempdir({ 'targets.yaml': DECLARED, 'policies.yaml': `policies:${AGENT_IN_TEAM_RULE}` })
    const document = JSON.parse((await cli(em(), dir, ['audit', '--format', 'json'])).stdout)
    const validate = ajv.getSchema('audit.schema.json')
    expect(validate).toBeTypeOf('function')
    expect(validate!(document)).toBe(true)
    expect(validate!({ ...document, changes: [] })).toBe(false)
    expect(validate!({ ...document, summary: { ...document.summary, change: 0 } })).toBe(false)
    expect(validate!({ format_version: 1, changes: [], summary: { change: 0, unchanged: 3 } })).toBe(false)
    const { warnings: _, ...withoutWarnings } = document.summary
    expect(validate!({ ...document, summary: withoutWarnings })).toBe(false)
  })
})
