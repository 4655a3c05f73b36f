// Two rules and two declared targets that the audit tests share (test/policy/cli.test.ts and
// review-r19-audit-schema.test.ts): on the example service the shop passes the blackout rule;
// staging, the payments API and the microsite do not; the porto agent is in no team.

/** Every target pauses scans in office hours (level error). */
export const BLACKOUT_ENABLED = `  - name: blackout-enabled
    description: Every target pauses scans in office hours
    kind: target
    require:
      required: [blackout_period]
      properties: {blackout_period: {required: [enabled], properties: {enabled: {const: true}}}}
`

/** Every agent belongs to a team (level warning). */
export const AGENT_IN_TEAM = `  - name: agent-in-team
    description: Every agent belongs to a team
    kind: agent
    require: {required: [teams], properties: {teams: {minItems: 1}}}
    level: warning
`

/** Staging (its blackout window enabled by the apply) and the payments API (not). */
export const AUDITED_TARGETS = `targets:
  - id: 7QwErTy2UiOp
    blackout_period: {begin: "08:00", cease: "18:00", weekdays: [1, 2, 3, 4, 5], enabled: true}
  - id: 5HnBvC3xZaQw
    site: {name: Payments API}
`
