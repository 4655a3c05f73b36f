// Policies through the real CLI (contract, "Policies"): each outcome of a rule (error, warning,
// `when` not matching), each malformed rule (not a schema, a misspelt keyword, a duplicate name,
// an unknown kind, a bad level), plan seeing the after-apply shape, apply refusing before any
// request, drift, and audit over declared and undeclared live resources in every format.
import { beforeAll, describe, expect, it } from 'vitest'
import { cli, emulator, runCli, sharedEmulator, tempdir, writes } from '../e2e/helpers.js'
import { AGENT_IN_TEAM, AUDITED_TARGETS, BLACKOUT_ENABLED } from './audit-rules.js'

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1

/** The contract's example rule. */
const BLACKOUT_RULE = (level = 'error', name = 'production-has-blackout') => `
  - name: ${name}
    description: Production targets pause scans in office hours
    kind: target
    when:
      properties: {labels: {contains: {properties: {name: {const: production}}, required: [name]}}}
      required: [labels]
    require:
      required: [blackout_period]
      properties: {blackout_period: {properties: {enabled: {const: true}}, required: [enabled]}}
    level: ${level}
`

/** The staging target (no blackout window on the service) declared as production. */
const STAGING_AS_PRODUCTION = `targets:
  - id: 7QwErTy2UiOp
    labels: [production]
`

const em = sharedEmulator()

describe.concurrent('plan: each outcome of a rule', () => {
  it('error: the violation at the resource line on stderr, exit 1; the plan itself still printed', async () => {
    const text = `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE()}`
    const dir = tempdir({ 'a.yaml': text })
    const { code, stdout, stderr } = await cli(em(), dir, ['plan'])
    expect(stdout).toContain('Plan: 1 to change, 0 unchanged.')
    expect(stderr).toContain(
      `a.yaml:${lineOf(text, '- id: 7QwErTy2UiOp')}:5: policy production-has-blackout: target 7QwErTy2UiOp: Production targets pause scans in office hours (the target: must have required property 'blackout_period')\n`,
    )
    expect(stderr).toContain('1 policy violation: 1 error, 0 warnings.')
    expect(code).toBe(1)
  })

  it('warning: reported with its level, exit code unchanged (0, and 2 with --detailed-exitcode)', async () => {
    const dir = tempdir({ 'a.yaml': `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE('warning')}` })
    const plain = await cli(em(), dir, ['plan'])
    expect(plain.stderr).toMatch(/^a\.yaml:2:5: policy production-has-blackout: target 7QwErTy2UiOp: .* \[warning\]$/m)
    expect(plain.code).toBe(0)
    expect((await cli(em(), dir, ['plan', '--detailed-exitcode'])).code).toBe(2)
  })

  it('`when` not matching: the rule does not apply, nothing reported', async () => {
    const text = `targets:\n  - id: 7QwErTy2UiOp\n    labels: [staging]\npolicies:${BLACKOUT_RULE()}`
    const { code, stderr } = await cli(em(), tempdir({ 'a.yaml': text }), ['plan'])
    expect(stderr).not.toContain('policy')
    expect(code).toBe(0)
  })

  it('the after-apply shape: a live field the YAML does not declare satisfies a rule; a declared change is what is checked', async () => {
    // The shop has a blackout window enabled on the service; the YAML declares only its name.
    const live = `targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: Shop}\npolicies:${BLACKOUT_RULE()}`
    const satisfied = await cli(em(), tempdir({ 'a.yaml': live }), ['plan'])
    expect(satisfied.stderr).toBe('')
    expect(satisfied.code).toBe(0)
    // The same target with the window switched off in the YAML: the plan would break the rule.
    const declared = `targets:\n  - id: 2DZkoZH8WMEM\n    blackout_period: {begin: "22:00", cease: "06:00", weekdays: [1, 2, 3, 4, 5], enabled: false}\npolicies:${BLACKOUT_RULE()}`
    const broken = await cli(em(), tempdir({ 'a.yaml': declared }), ['plan'])
    expect(broken.stderr).toContain(`a.yaml:2:5: policy production-has-blackout: target 2DZkoZH8WMEM:`)
    expect(broken.stderr).toContain(`(blackout_period.enabled: must be equal to constant true)`)
    expect(broken.code).toBe(1)
  })

  // Review round 26 (one rule, four commands): apply --format github printed the annotations
  // without the line counting them that plan, drift and audit print (GitHub shows ten a level).
  it('apply --format github counts the violations after their annotations, as plan does; an error sends nothing, a warning lets it go on', async () => {
    // An emulator of its own: the warning's apply changes the staging target.
    const own = await emulator()
    const refused = tempdir({ 'targets.yaml': STAGING_AS_PRODUCTION, 'rules.yaml': `policies:${BLACKOUT_RULE()}` })
    const apply = await cli(own, refused, ['apply', '--auto-approve', '--format', 'github'])
    expect(apply.stdout).toMatch(/^::error file=targets\.yaml,line=2,col=5,title=scansync policy production-has-blackout::/m)
    expect(apply.stdout).toMatch(/^1 policy violation: 1 error, 0 warnings\.$/m)
    expect(apply.code).toBe(1)
    expect(writes(own)).toEqual([])
    const warned = tempdir({ 'targets.yaml': STAGING_AS_PRODUCTION, 'rules.yaml': `policies:${BLACKOUT_RULE('warning')}` })
    const goes = await cli(own, warned, ['apply', '--auto-approve', '--format', 'github'])
    expect(goes.stdout).toMatch(/^::warning file=targets\.yaml,line=2,col=5,title=scansync policy production-has-blackout::/m)
    expect(goes.stdout).toMatch(/^1 policy violation: 0 errors, 1 warning\.$/m)
  })

  it('rules in another file apply to the resources of every file; the json, markdown and github plans carry them', async () => {
    const dir = tempdir({ 'targets.yaml': STAGING_AS_PRODUCTION, 'rules/policies.yaml': `policies:${BLACKOUT_RULE()}` })
    const json = await cli(em(), dir, ['plan', '--format', 'json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout).violations).toEqual([
      {
        policy: 'production-has-blackout',
        level: 'error',
        kind: 'target',
        id: '7QwErTy2UiOp',
        message: "Production targets pause scans in office hours (the target: must have required property 'blackout_period')",
        file: 'targets.yaml',
        line: 2,
      },
    ])
    const markdown = await cli(em(), dir, ['plan', '--format', 'markdown'])
    expect(markdown.stdout).toMatch(/### scansync plan[\s\S]*### Policy violations\n\n\*\*1 policy violation: 1 error, 0 warnings\.\*\*/)
    expect(markdown.stdout).toContain('| ✗ error | <code>production-has-blackout</code> | target <code>7QwErTy2UiOp</code> | targets.yaml:2 |')
    // The job's log has every violation, whatever the comment's room (a review of the fifteenth round).
    expect(markdown.stderr).toMatch(/^targets\.yaml:2:5: policy production-has-blackout: target 7QwErTy2UiOp: Production targets pause scans/m)
    const github = await cli(em(), dir, ['plan', '--format', 'github'])
    expect(github.stdout).toMatch(/^::error file=targets\.yaml,line=2,col=5,title=scansync policy production-has-blackout::target 7QwErTy2UiOp: Production targets pause scans/m)
    // GitHub shows 10 annotations a level: the log counts them all, before the plan's own summary (a review of the twenty-fifth round:
    // a plan failing on violations ended "No changes. Plan: 0 to change, …" with nothing counting them).
    expect(github.stdout).toMatch(/^1 policy violation: 1 error, 0 warnings\.\n(.*\n)*.*Plan: \d+ to change, \d+ unchanged\.\n$/m)
    expect(github.code).toBe(1)
  })

  it('a configuration without rules plans as before: no violations key in JSON', async () => {
    const { stdout, code } = await cli(em(), tempdir({ 'a.yaml': STAGING_AS_PRODUCTION }), ['plan', '--format', 'json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).not.toHaveProperty('violations')
  })
})

describe.concurrent('apply and drift', () => {
  it('apply refuses before any request is sent; a warning does not stop it', async () => {
    const fresh = await emulator()
    const dir = tempdir({ 'a.yaml': `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE()}` })
    const refused = await cli(fresh, dir, ['apply', '--auto-approve'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('policy production-has-blackout: target 7QwErTy2UiOp')
    expect(refused.stderr).toContain('nothing was sent')
    expect(writes(fresh)).toEqual([])
    const warned = tempdir({ 'a.yaml': `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE('warning')}` })
    const applied = await cli(fresh, warned, ['apply', '--auto-approve'])
    expect(applied.stderr).toContain('[warning]')
    expect(applied.code).toBe(0)
    expect(writes(fresh).map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /targets/7QwErTy2UiOp/'])
  })

  it('apply --format json and markdown carry the violations in the report, refused or applied', async () => {
    const fresh = await emulator()
    const dir = tempdir({ 'a.yaml': `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE()}` })
    const refused = await cli(fresh, dir, ['apply', '--auto-approve', '--format', 'json'])
    expect(refused.code).toBe(1)
    const document = JSON.parse(refused.stdout)
    expect(document.violations).toEqual([expect.objectContaining({ policy: 'production-has-blackout', level: 'error', kind: 'target', id: '7QwErTy2UiOp', file: 'a.yaml', line: 2 })])
    expect(document.changes).toEqual([expect.objectContaining({ id: '7QwErTy2UiOp', result: 'failed', sent: false, error: 'not sent: the configuration breaks a policy of level error' })])
    expect(refused.stderr).not.toContain('policy production-has-blackout:')
    const markdown = await cli(fresh, dir, ['apply', '--auto-approve', '--format', 'markdown'])
    expect(markdown.code).toBe(1)
    expect(markdown.stdout).toContain('### Policy violations')
    expect(writes(fresh)).toEqual([])
    const warned = tempdir({ 'a.yaml': `${STAGING_AS_PRODUCTION}policies:${BLACKOUT_RULE('warning')}` })
    const applied = await cli(fresh, warned, ['apply', '--auto-approve', '--format', 'json'])
    expect(applied.code, applied.stderr).toBe(0)
    const report = JSON.parse(applied.stdout)
    expect(report.violations).toEqual([expect.objectContaining({ policy: 'production-has-blackout', level: 'warning' })])
    expect(report.changes).toEqual([expect.objectContaining({ id: '7QwErTy2UiOp', result: 'applied' })])
  })

  it('drift checks the rules too: an error violation fails it', async () => {
    const dir = tempdir({ 'a.yaml': `targets:\n  - id: 9XcVbN5mQwEr\n    labels: [production, marketing]\npolicies:${BLACKOUT_RULE()}` })
    const { code, stderr } = await cli(em(), dir, ['drift'])
    expect(stderr).toContain('a.yaml:2:5: policy production-has-blackout: target 9XcVbN5mQwEr')
    expect(code).toBe(1)
  })
})

describe.concurrent('validate: rules must be well-formed, reported at their line', () => {
  const validate = (files: Record<string, string>) => runCli(['validate'], { cwd: tempdir(files) })
  /** `validate` of one file `a.yaml` prints exactly these lines on stderr and exits 1. */
  const expectProblems = async (text: string, lines: string[]) => {
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr.trim().split('\n')).toEqual(lines)
    expect(code).toBe(1)
  }

  it('a misspelt keyword is an error at its line, with the keyword it likely meant', async () => {
    const text = `policies:\n  - name: r\n    kind: target\n    require:\n      properties:\n        labels: {minItems: 1}\n      requried: [labels]\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toContain(`a.yaml:7:7: policy r: require: unknown keyword "requried" (did you mean "required"?)`)
    expect(code).toBe(1)
  })

  it('a misspelt keyword deep inside `when` is placed there too', async () => {
    const text = `policies:\n  - name: r\n    kind: agent\n    when:\n      properties:\n        teams:\n          contains: {propertes: {id: {const: x}}}\n    require: true\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toContain(`a.yaml:7:22: policy r: when: unknown keyword "propertes" at properties.teams.contains (did you mean "properties"?)`)
    expect(code).toBe(1)
  })

  it('a malformed rule (not a JSON Schema) is an error at the offending value', async () => {
    const text = `policies:\n  - name: r\n    kind: target\n    require:\n      required: labels\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toContain('a.yaml:5:17: policy r: require.required is not a valid JSON Schema: must be array')
    expect(code).toBe(1)
  })

  it('a rule without require, or with an unknown field, is refused by the configuration schema', async () => {
    const { code, stderr } = await validate({ 'a.yaml': `policies:\n  - name: r\n    kind: target\n    requires: {}\n` })
    expect(stderr).toMatch(/^a\.yaml:2:5: .*require/m)
    expect(stderr).toMatch(/^a\.yaml:4:5: .*requires/m)
    expect(code).toBe(1)
  })

  it('a name used twice (in two files) is an error at both', async () => {
    const rule = `policies:\n  - name: same\n    kind: target\n    require: true\n`
    const { code, stderr } = await validate({ 'a.yaml': rule, 'b.yaml': rule })
    expect(stderr).toContain('a.yaml:2:11: policy same is declared twice: here and at b.yaml:2')
    expect(stderr).toContain('b.yaml:2:11: policy same is declared twice: here and at a.yaml:2')
    expect(code).toBe(1)
  })

  it('a rule declared twice is still checked: its misspelt keyword is reported in the same run', async () => {
    const { code, stderr } = await validate({ 'a.yaml': `policies:\n  - name: same\n    kind: target\n    require: true\n  - name: same\n    kind: target\n    require: {requried: [labels]}\n` })
    expect(stderr).toContain('policy same is declared twice')
    expect(stderr).toMatch(/^a\.yaml:7:\d+: .*unknown keyword "requried" \(did you mean "required"\?\)/m)
    expect(code).toBe(1)
  })

  // A new user's review: a bad `level` hid the duplicate name and the invalid schema until it was fixed.
  it('a rule with a bad level or description is still compiled and checked: every error in one run', async () => {
    const text = `policies:\n  - name: r\n    kind: target\n    require: true\n  - name: r\n    kind: target\n    level: fatal\n    description: 5\n    require: {properties: {teams: {type: arry}}}\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toContain('a.yaml:2:11: policy r is declared twice: here and at a.yaml:5')
    expect(stderr).toMatch(/^a\.yaml:7:12: .*level.*error, warning/m)
    expect(stderr).toMatch(/^a\.yaml:8:\d+: .*description must be a string/m)
    expect(stderr).toMatch(/^a\.yaml:9:\d+: policy r: require\.properties\.teams\.type is not a valid JSON Schema/m)
    expect(code).toBe(1)
  })

  it('an unknown kind and a bad level are errors at their line', async () => {
    const { code, stderr } = await validate({ 'a.yaml': `policies:\n  - name: r\n    kind: targets\n    require: true\n    level: fatal\n` })
    expect(stderr).toMatch(/^a\.yaml:3:11: .*kind.*target, asset, agent/m)
    expect(stderr).toMatch(/^a\.yaml:5:12: .*level.*error, warning/m)
    expect(code).toBe(1)
  })

  // A schema about an absent property passes: a misspelt field would make a rule that never fails, as a misspelt keyword would.
  it('a field the kind does not have, close to one it has, is an error at its name, with the field meant; a field far from all is the service\'s own', async () => {
    const text = `policies:
  - name: r
    kind: target
    when: {required: [labls]}
    require:
      properties:
        blackout_priod: {required: [enabled]}
        site: {properties: {nmae: {minLength: 3}, url: {pattern: "^https"}}}
        labels: {contains: {properties: {nme: {const: x}}}}
        x_custom_field: {const: 1}
        blackout_period: {properties: {begin: {const: "08:00"}, timezone: {const: UTC}}}
  - name: agents
    kind: agent
    require: {properties: {teams: {items: {required: [idd]}}, fallback: {const: false}}}
`
    await expectProblems(text, [
      'a.yaml:4:23: policy r: when: a target has no field labls (did you mean labels?); a rule about a field that is never there passes silently',
      'a.yaml:7:9: policy r: require: a target has no field blackout_priod (did you mean blackout_period?); a rule about a field that is never there passes silently',
      'a.yaml:8:29: policy r: require: a target has no field site.nmae (did you mean site.name?); a rule about a field that is never there passes silently',
      'a.yaml:9:42: policy r: require: a target has no field labels[].nme (did you mean labels[].name?); a rule about a field that is never there passes silently',
      'a.yaml:14:55: policy agents: require: an agent has no field teams[].idd (did you mean teams[].id?); a rule about a field that is never there passes silently',
      '5 errors; nothing was sent.',
    ])
  })

  // A review of the thirteenth round's release (left alone then): a misspelling inside a definition was never looked for.
  it('a misspelt field in a definition a local $ref points to, or in dependencies, is an error where it is written, once', async () => {
    const text = `policies:
  - name: r
    kind: target
    require:
      definitions:
        window: {required: [enabeld], properties: {timezon: {type: string}}}
        unused: {required: [nothing_near]}
      properties:
        blackout_period: {$ref: "#/definitions/window"}
        scanning_agent: {$ref: "#/definitions/window"}
      allOf: [{$ref: "#/properties/blackout_period"}]
      dependencies: {repor_type: [labels], site: [scaning_agent]}
`
    await expectProblems(text, [
      'a.yaml:6:29: policy r: require: a target has no field blackout_period.enabeld (did you mean blackout_period.enabled?); a rule about a field that is never there passes silently',
      'a.yaml:6:52: policy r: require: a target has no field blackout_period.timezon (did you mean blackout_period.timezone?); a rule about a field that is never there passes silently',
      'a.yaml:12:22: policy r: require: a target has no field repor_type (did you mean report_type?); a rule about a field that is never there passes silently',
      'a.yaml:12:51: policy r: require: a target has no field scaning_agent (did you mean scanning_agent?); a rule about a field that is never there passes silently',
      '4 errors; nothing was sent.',
    ])
  })

  // A review of the thirteenth round's release: `scanning_agent.name` (the service answers it) passed every target, since rules see the agent as {id}.
  it('a member the service answers where rules see only the YAML\'s form (an agent, a team as {id}; a label as {name, color}) is an error at its name', async () => {
    const text = `policies:
  - name: r
    kind: target
    require: {properties: {scanning_agent: {properties: {name: {const: dc-lisbon-agent}}, required: [id]}, labels: {items: {required: [id, name]}}}}
  - name: a
    kind: agent
    require: {properties: {teams: {contains: {properties: {name: {const: Security}}}}}}
`
    await expectProblems(text, [
      "a.yaml:4:58: policy r: require: rules see a target's scanning_agent as {id}: scanning_agent.name is never there, so a rule about it passes silently",
      "a.yaml:4:136: policy r: require: rules see a target's labels[] as {name, color}: labels[].id is never there, so a rule about it passes silently",
      "a.yaml:7:60: policy a: require: rules see an agent's teams[] as {id}: teams[].name is never there, so a rule about it passes silently",
      '3 errors; nothing was sent.',
    ])
  })

  it('so is such a member under allOf, anyOf or a local $ref at that place', async () => {
    const text = `policies:
  - name: a
    kind: target
    require: {properties: {labels: {items: {allOf: [{required: [id]}]}}}}
  - name: b
    kind: target
    require:
      definitions: {lab: {required: [id]}}
      properties: {labels: {items: {$ref: "#/definitions/lab"}}}
  - name: c
    kind: target
    require: {properties: {scanning_agent: {anyOf: [{type: "null"}, {required: [name]}]}}}
`
    await expectProblems(text, [
      "a.yaml:4:65: policy a: require: rules see a target's labels[] as {name, color}: labels[].id is never there, so a rule about it passes silently",
      "a.yaml:8:38: policy b: require: rules see a target's labels[] as {name, color}: labels[].id is never there, so a rule about it passes silently",
      "a.yaml:12:81: policy c: require: rules see a target's scanning_agent as {id}: scanning_agent.name is never there, so a rule about it passes silently",
      '3 errors; nothing was sent.',
    ])
  })

  it('a field the service answers elsewhere than the YAML writes it is an error where the rule names it (a target\'s api_scan_settings under site)', async () => {
    const text = `policies:\n  - name: r\n    kind: target\n    require: {properties: {site: {properties: {api_scan_settings: {required: [api_login_method]}, name: {minLength: 2}}}, scanning_agent: {properties: {name: {const: a}}}}}\n`
    await expectProblems(text, [
      "a.yaml:4:48: policy r: require: rules see a target's api_scan_settings at its top level, as the YAML writes it, never at site.api_scan_settings; a rule about it there passes silently",
      "a.yaml:4:153: policy r: require: rules see a target's scanning_agent as {id}: scanning_agent.name is never there, so a rule about it passes silently",
      '2 errors; nothing was sent.',
    ])
  })

  // A review of the twelfth round's release: each of these ended in "unexpected failure", a raw stack, or a rule that passed whatever it found.
  it('$schema other than draft-07, $async and a schema that refers to itself without end are errors at their line; draft-07 over https and a short unknown field are fine', async () => {
    const text = `policies:
  - name: draft4
    kind: target
    require: {$schema: "http://json-schema.org/draft-04/schema#", required: [site]}
  - name: https-draft7
    kind: target
    require: {$schema: "https://json-schema.org/draft-07/schema#", required: [ip]}
  - name: async
    kind: target
    require: {required: [site], properties: {site: {$async: true}}}
  - name: loop
    kind: target
    require: {not: {$ref: "#"}}
`
    await expectProblems(text, [
      'a.yaml:4:24: policy draft4: require: rules are written in JSON Schema draft-07; leave "$schema" out, or write "http://json-schema.org/draft-07/schema#"',
      'a.yaml:10:53: policy async: require: "$async" has no place in a rule: rules are checked as the plan reads each resource',
      'a.yaml:13:5: policy loop: require: the schema refers to itself without end ($ref), so no resource can be checked against it',
      '3 errors; nothing was sent.',
    ])
  })

  // A review of the thirteenth round's release: each of these was misplaced, misworded, or valid only beside another rule.
  it('a reference to the meta-schema compiles alone; a misspelling under $defs, NaN, and Ajv recursing are errors at their place', async () => {
    const text = `policies:
  - name: meta
    kind: target
    require: {properties: {blackout_period: {$ref: "http://json-schema.org/draft-07/schema#"}}}
  - name: defs
    kind: target
    require:
      $defs:
        a:
          requird: [site]
      $ref: "#/$defs/a"
  - name: nan
    kind: target
    require: {properties: {risk: {const: .nan}}}
  - name: self
    kind: target
    require: {properties: {site: {$ref: "#/properties/site"}}}
`
    await expectProblems(text, [
      'a.yaml:10:11: policy defs: require: unknown keyword "requird" at $defs.a (did you mean "required"?); JSON Schema keywords are checked strictly so that a misspelt rule cannot pass silently',
      "a.yaml:14:42: policy nan: require.properties.risk.const: NaN is not a JSON number; a resource's values never are",
      'a.yaml:17:5: policy self: require: the schema refers to itself without end ($ref), so no resource can be checked against it',
      '3 errors; nothing was sent.',
    ])
  })

  // A review of the twelfth round's release: a rule's own problems were said only once the rest of its file was fixed.
  it('a rule is checked in the same run as the problems elsewhere in its file, and a broken rule beside it', async () => {
    const text = `targets:\n  - id: T1\n    report_type: nonsense\npolicies:\n  - name: r\n    kind: widget\n    require: true\n  - name: s\n    kind: target\n    require: {requried: [site]}\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toMatch(/^a\.yaml:3:\d+: .*report_type/m)
    expect(stderr).toMatch(/^a\.yaml:6:\d+: .*kind/m)
    expect(stderr).toMatch(/^a\.yaml:10:\d+: policy s: require: unknown keyword "requried"/m)
    expect(code).toBe(1)
  })

  it('well-formed rules validate, with x- holders for shared schema parts', async () => {
    const text = `x-prod: &prod {required: [labels]}\npolicies:\n  - name: r\n    kind: target\n    when: *prod\n    require: {required: [blackout_period]}\n`
    const { code, stderr } = await validate({ 'a.yaml': text })
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})

describe.concurrent('a rule that recurses on some values', () => {
  it('plan stops with an error naming the rule, not a crash', async () => {
    const dir = tempdir({ 'a.yaml': `targets:\n  - id: 2DZkoZH8WMEM\npolicies:\n  - name: loop-on-site\n    kind: target\n    require: {if: {type: object, required: [site]}, then: {$ref: "#"}}\n` })
    const { code, stdout, stderr } = await cli(em(), dir, ['plan'])
    expect(stderr).toContain('a.yaml:4:5: policy loop-on-site: require: the schema refers to itself without end ($ref) on a target\'s values, so it cannot be checked')
    expect(stderr).not.toMatch(/unexpected failure|at .*\(/)
    expect(stdout).toBe('')
    expect(code).toBe(1)
  })
})

// A rule decides whether there is a violation: one that could read a secret would let a set of
// rules spell it out a guess at a time (a review of the twelfth round's release). Rules see
// `(sensitive)` instead: they can ask that a secret be set, never what it is. (validate refuses a
// keyword about a password's content where a rule names it; the rule here reaches it by a pattern.)
describe.concurrent('secrets are kept from the rules', () => {
  const guess = (name: string, when: string) => `
  - name: ${name}
    kind: target
    when: ${when}
    require: false
    level: warning`
  /** A `when` that matches when the value at `path` is there and matches `pattern`. */
  const at = (path: string[], test: string): string => path.reduceRight((inner, key) => `{required: [${key}], properties: {${key}: ${inner}}}`, test)
  const RULES = `policies:${guess('guess-variable', at(['site', 'desc'], '{pattern: "^AwsKey"}'))}${guess('guess-password', at(['site', 'basic_auth'], '{required: [password], patternProperties: {"^password$": {pattern: "^demo"}}}'))}${guess('guess-payload', at(['api_scan_settings', 'api_login_payload'], '{pattern: "client"}'))}${guess('guess-weak-secret', at(['site', 'name'], '{pattern: "^Shop"}'))}${guess('password-set', at(['site', 'basic_auth', 'password'], 'true'))}${guess('shown-sensitive', at(['site', 'desc'], '{const: "(sensitive)"}'))}
`
  const TARGETS = `targets:
  - id: 2DZkoZH8WMEM
    site: {desc: "\${CI_SECRET}"}
  - id: 7QwErTy2UiOp
    site: {desc: "\${WEAK_SECRET}"}
`

  it('plan and audit: a value from a variable, a password, a flagged value and a text holding a secret of the run are (sensitive) to rules', async () => {
    const dir = tempdir({ 'targets.yaml': TARGETS, 'policies.yaml': RULES })
    // WEAK_SECRET: a secret of the run that a live text holds (the shop's name: "Shop").
    const env = { CI_SECRET: 'AwsKey-9zQ7-long-enough', WEAK_SECRET: 'Shop' }
    const planned = await cli(em(), dir, ['plan'], env)
    const fired = (stderr: string) => [...stderr.matchAll(/policy ([\w-]+): target (\w+)/g)].map((m) => `${m[1]} ${m[2]}`).sort()
    const expected = ['password-set 2DZkoZH8WMEM', 'shown-sensitive 2DZkoZH8WMEM', 'shown-sensitive 7QwErTy2UiOp']
    expect(fired(planned.stderr)).toEqual(expected)
    expect(planned.stderr).not.toContain(env.CI_SECRET)
    expect(planned.code).toBe(0)
    // Every live target: the API target's payload, flagged sensitive, no file declaring it.
    const audited = await cli(em(), dir, ['audit'], env)
    expect(fired(audited.stderr)).toEqual(expected)
    expect(audited.code).toBe(0)
  })
})

// A review of the thirteenth round's release: plans hid a live text quoting the resource's own
// password, but rules read it, and so could spell the password out a guess at a time.
describe('a live text quoting the resource\'s own secret', () => {
  it('is (sensitive) to rules, in plan and audit, as it is in the plan', async () => {
    const own = await emulator()
    own.mutate('target', '2DZkoZH8WMEM', { site: { desc: 'log in with demo-login-password or demo-basic-auth-password' } })
    const guess = (name: string, pattern: string) => `
  - {name: ${name}, kind: target, level: warning, when: {required: [site], properties: {site: {required: [desc], properties: {desc: {pattern: "${pattern}"}}}}}, require: false}`
    const dir = tempdir({
      'targets.yaml': 'targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: Shop}\n',
      'policies.yaml': `policies:${guess('guess-first-letter', 'with d')}${guess('guess-whole', 'demo-login-password')}${guess('shown-sensitive', '^[(]sensitive[)]$')}\n`,
    })
    for (const command of ['plan', 'audit']) {
      const { code, stderr } = await cli(own, dir, [command])
      const fired = [...stderr.matchAll(/policy ([\w-]+): target 2DZkoZH8WMEM/g)].map((m) => m[1])
      expect(fired, `${command}: ${stderr}`).toEqual(['shown-sensitive'])
      expect(stderr).not.toContain('demo-login-password')
      expect(code, command).toBe(0)
    }
  })
})

// A review of this round's change above: a short live password (`staging`) turned the URL the YAML
// writes (`https://staging.shop.example.com/`) into (sensitive), and a correct target into a violation.
describe('a text the YAML writes as it is', () => {
  it('is shown to rules as written, though a live secret be in it; the same text not declared is still (sensitive)', async () => {
    const own = await emulator()
    own.mutate('target', '7QwErTy2UiOp', { site: { has_basic_auth: true, basic_auth: { username: 'qa', password: 'staging', password_is_sensitive: false } } })
    const dir = tempdir({
      'targets.yaml': 'targets:\n  - id: 7QwErTy2UiOp\n    site: {url: "https://staging.shop.example.com/"}\n',
      'policies.yaml': 'policies:\n  - {name: https-only, kind: target, require: {properties: {site: {properties: {url: {pattern: "^https://"}}}}}}\n  - {name: name-shown, kind: target, level: warning, when: {properties: {site: {properties: {name: {const: "(sensitive)"}}}}}, require: false}\n',
    })
    for (const command of ['plan', 'audit']) {
      const { code, stderr } = await cli(own, dir, [command])
      const fired = [...stderr.matchAll(/policy ([\w-]+): target 7QwErTy2UiOp/g)].map((m) => m[1])
      // The live name `Shop (staging)`, which no file writes, holds the password: still kept from the rules.
      expect(fired, `${command}: ${stderr}`).toEqual(['name-shown'])
      expect(code, command).toBe(0)
    }
  })
})

// A review of the thirteenth round's release: a value anyone can type in the web interface made a
// rule's backtracking pattern run for years, and the nightly audit with it.
describe('a rule whose pattern backtracks without end on a value', () => {
  it('stops the plan with an error naming the rule and the resource, within seconds, not a hang', async () => {
    const dir = tempdir({
      'a.yaml': `targets:\n  - id: 2DZkoZH8WMEM\n    site: {name: "${'a'.repeat(40)}!"}\npolicies:\n  - name: fine\n    kind: target\n    require: {properties: {site: {properties: {name: {pattern: "^[A-Za-z!]+$"}}}}}\n  - name: slow\n    kind: target\n    require: {properties: {site: {properties: {name: {pattern: "^(a|a)*$"}}}}}\n`,
    })
    const { code, stdout, stderr } = await cli(em(), dir, ['plan'])
    expect(stderr).toContain('a.yaml:8:5: policy slow: checking target 2DZkoZH8WMEM took more than 1 s (a pattern that backtracks on its values?), so the rule cannot be checked')
    expect(stderr).not.toMatch(/unexpected failure|at .*\(/)
    expect(stdout).toBe('')
    expect(code).toBe(1)
  }, 60_000)
})

describe.concurrent('audit: every live resource, declared or not', () => {
  // Every target must have its blackout window enabled; every agent must be in a team (a warning).
  // On the service: the shop passes; staging, the payments API and the microsite do not; the
  // porto agent is in no team. The file declares staging (fixing it after the apply) and the
  // payments API (not fixing it).
  const RULES = `policies:
${BLACKOUT_ENABLED}${AGENT_IN_TEAM}`
  const TARGETS = AUDITED_TARGETS
  let dir: string
  beforeAll(() => {
    dir = tempdir({ 'targets.yaml': TARGETS, 'policies.yaml': RULES })
  })

  it('text: declared violations at their line, undeclared ones at the rule, exit 2', async () => {
    const { code, stdout, stderr } = await cli(em(), dir, ['audit'])
    expect(stdout).toBe('Audit: 7 live resources checked against 2 rules; 3 policy violations: 2 errors, 1 warning.\n')
    expect(stderr.trim().split('\n')).toEqual([
      `targets.yaml:4:5: policy blackout-enabled: target 5HnBvC3xZaQw: Every target pauses scans in office hours (blackout_period.enabled: must be equal to constant true)`,
      `policies.yaml:2:5: policy blackout-enabled: target 9XcVbN5mQwEr: Every target pauses scans in office hours (the target: must have required property 'blackout_period') (declared in no file)`,
      `policies.yaml:8:5: policy agent-in-team: agent 6NbVcX4zLkJh: Every agent belongs to a team (the agent: must have required property 'teams') (declared in no file) [warning]`,
      '3 policy violations: 2 errors, 1 warning.',
    ])
    expect(code).toBe(2)
  })

  it('json: every violation with file and line (null when no file declares the resource)', async () => {
    const { code, stdout } = await cli(em(), dir, ['audit', '--format', 'json'])
    const document = JSON.parse(stdout)
    expect(document.summary).toEqual({ checked: 7, rules: 2, errors: 2, warnings: 1 })
    expect(document.violations.map((v: Record<string, unknown>) => [v.policy, v.level, v.kind, v.id, v.file, v.line])).toEqual([
      ['blackout-enabled', 'error', 'target', '5HnBvC3xZaQw', 'targets.yaml', 4],
      ['blackout-enabled', 'error', 'target', '9XcVbN5mQwEr', null, null],
      ['agent-in-team', 'warning', 'agent', '6NbVcX4zLkJh', null, null],
    ])
    expect(code).toBe(2)
  })

  it('markdown and github', async () => {
    const markdown = await cli(em(), dir, ['audit', '--format', 'markdown'])
    expect(markdown.stdout).toMatch(/^### scansync audit\n\n\*\*Audit: 7 live resources checked against 2 rules; 3 policy violations: 2 errors, 1 warning\.\*\*\n/)
    expect(markdown.stdout).toContain('| ✗ error | <code>blackout-enabled</code> | target <code>9XcVbN5mQwEr</code> | declared in no file |')
    expect(markdown.code).toBe(2)
    const github = await cli(em(), dir, ['audit', '--format', 'github'])
    expect(github.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^::error file=targets\.yaml,line=4,col=5,title=scansync policy blackout-enabled::target 5HnBvC3xZaQw: /),
      expect.stringMatching(/^::error file=policies\.yaml,line=2,col=5,title=scansync policy blackout-enabled::target 9XcVbN5mQwEr: .*\(declared in no file\)$/),
      expect.stringMatching(/^::warning file=policies\.yaml,line=8,col=5,title=scansync policy agent-in-team::agent 6NbVcX4zLkJh: .*\(declared in no file\)$/),
    ])
    expect(github.code).toBe(2)
  })

  it('warnings only: exit 0; no rules: exit 1 saying so; reads only list pages of the kinds the rules name', async () => {
    const fresh = await emulator()
    const agentsOnly = tempdir({ 'policies.yaml': RULES.replace(/  - name: blackout-enabled[\s\S]*?(?=  - name: agent-in-team)/, '') })
    const warned = await cli(fresh, agentsOnly, ['audit'])
    expect(warned.code).toBe(0)
    expect(warned.stdout).toBe('Audit: 3 live resources checked against 1 rule; 1 policy violation: 0 errors, 1 warning.\n')
    expect(fresh.requests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /scanning-agents/'])
    const none = await cli(fresh, tempdir({ 'a.yaml': STAGING_AS_PRODUCTION }), ['audit'])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('holds no policies')
  })
})

describe('audit and plan agree on a declared resource', () => {
  it('one known by its URL or name, and references by name, are checked as plan checks them', async () => {
    const fresh = await emulator()
    const dir = tempdir({
      'config.yaml': [
        'agents:',
        '  - name: dc-porto-agent',
        '    teams: [{name: Platform}]',
        'targets:',
        '  - site: {name: Shop, url: "https://SHOP.example.com:443/"}',
        '    report_type: pci',
        '    scanning_agent: {name: dc-lisbon-agent}',
        'policies:',
        '  - name: agent-in-platform',
        '    kind: agent',
        '    when: {required: [id], properties: {id: {const: 6NbVcX4zLkJh}}}',
        '    require: {required: [teams], properties: {teams: {contains: {required: [id], properties: {id: {const: Tm8Kq2Xa9Lp3}}}}}}',
        '  - name: shop-pci-on-lisbon',
        '    kind: target',
        '    when: {required: [id], properties: {id: {const: 2DZkoZH8WMEM}}}',
        '    require: {required: [report_type, scanning_agent], properties: {report_type: {const: pci}, scanning_agent: {required: [id], properties: {id: {const: 3kLx8Qy7Pb2m}}}}}',
        '',
      ].join('\n'),
    })
    const plan = await cli(fresh, dir, ['plan'])
    expect(plan.code, plan.stderr).toBe(0)
    expect(plan.stderr).not.toContain('policy ')
    const audit = await cli(fresh, dir, ['audit', '--format', 'json'])
    expect(audit.code, audit.stdout + audit.stderr).toBe(0)
    expect(JSON.parse(audit.stdout).violations).toEqual([])
  })
})

describe('the nightly audit recipe', () => {
  it('runs audit on a schedule with annotations, and its exit code fails the job', async () => {
    const { readFileSync } = await import('node:fs')
    const { parse } = await import('yaml')
    const { ROOT } = await import('../helpers/cli.js')
    const recipe = parse(readFileSync(`${ROOT}examples/ci/github/scansync-audit.yml`, 'utf8'))
    expect(recipe.on.schedule[0].cron).toMatch(/^\S+ \S+ \* \* \*$/)
    const step = recipe.jobs.audit.steps.find((s: { run?: string }) => s.run?.includes('scansync audit'))
    // One audit for the verdict and the summary; a second only to annotate (run against the emulator in test/gitops/recipes.test.ts).
    expect(step.run).toMatch(/^npx --no scansync audit config --format markdown > audit\.md 2> errors\.txt$/m)
    expect(step.run).toMatch(/\nexit "\$code"\n$/)
    expect(step['continue-on-error']).toBeUndefined()
    expect(recipe.jobs.audit.env.SCANSYNC_API_TOKEN).toBe('${{ secrets.SCANSYNC_API_TOKEN }}')
  })
})
