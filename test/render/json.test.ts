import { describe, expect, it } from 'vitest'
import { createAjv } from '../../src/schema/ajv.js'
import { applyDocument, planDocument, renderApplyReport, renderPlan } from '../../src/render/index.js'
import { bigPlan, emptyPlan, samplePlan, sampleReport } from './builders.js'

const validate = createAjv().getSchema('plan.schema.json')!

function expectValid(text: string) {
  const document: unknown = JSON.parse(text)
  const valid = validate(document)
  expect(validate.errors ?? []).toEqual([])
  expect(valid).toBe(true)
}

describe('json format', () => {
  it('plan: the contract shape, sorted by kind then id, two-space indent and a trailing newline', () => {
    expect(renderPlan(samplePlan(), 'json')).toMatchInlineSnapshot(`
      "{
        "format_version": 1,
        "changes": [
          {
            "kind": "target",
            "id": "2DZkoZH8WMEM",
            "name": "Shop (production)",
            "action": "update",
            "method": "PATCH",
            "path": "/targets/2DZkoZH8WMEM/",
            "fields": [
              {
                "path": "site.name",
                "before": "Shop",
                "after": "Shop (production)",
                "sensitive": false
              },
              {
                "path": "site.basic_auth.password",
                "before": "(sensitive)",
                "after": "(sensitive)",
                "sensitive": true,
                "reason": "changed in YAML"
              },
              {
                "path": "labels",
                "before": [
                  "production"
                ],
                "after": [
                  "production",
                  {
                    "name": "pci",
                    "color": "#d93f0b"
                  }
                ],
                "sensitive": false
              },
              {
                "path": "site.headers[X-Old]",
                "before": {
                  "name": "X-Old",
                  "value": "1"
                },
                "after": null,
                "sensitive": false
              },
              {
                "path": "scanning_agent",
                "before": {
                  "id": "3kLx8Qy7Pb2m"
                },
                "after": null,
                "sensitive": false
              }
            ]
          },
          {
            "kind": "asset",
            "id": "9fGh2Kd8LmQz",
            "name": "legacy.example.com",
            "action": "update",
            "method": "PUT",
            "path": "/assets/9fGh2Kd8LmQz/",
            "fields": [
              {
                "path": "state",
                "before": "ACTIVE",
                "after": "ARCHIVED",
                "sensitive": false
              },
              {
                "path": "comment",
                "before": null,
                "after": "Decommissioned in October",
                "sensitive": false
              }
            ]
          },
          {
            "kind": "agent",
            "id": "3kLx8Qy7Pb2m",
            "name": null,
            "action": "update",
            "method": "PATCH",
            "path": "/agents/3kLx8Qy7Pb2m/",
            "fields": [
              {
                "path": "teams",
                "before": [
                  {
                    "id": "Tm8Kq2Xa9Lp3"
                  }
                ],
                "after": [
                  {
                    "id": "Tm8Kq2Xa9Lp3"
                  },
                  {
                    "id": "Tm1Zz9Yy8Xx7"
                  }
                ],
                "sensitive": false
              }
            ]
          }
        ],
        "summary": {
          "create": 0,
          "change": 3,
          "unchanged": 41
        }
      }
      "
    `)
  })

  it('validates against schemas/plan.schema.json: plan, drift, empty, big, apply', () => {
    expectValid(renderPlan(samplePlan(), 'json'))
    expectValid(renderPlan(samplePlan(), 'json', { mode: 'drift' }))
    expectValid(renderPlan(emptyPlan(), 'json'))
    expectValid(renderPlan(bigPlan(500), 'json'))
    expectValid(renderApplyReport(sampleReport(), 'json'))
  })

  it('drift mode prints the same document as plan', () => {
    expect(renderPlan(samplePlan(), 'json', { mode: 'drift' })).toBe(renderPlan(samplePlan(), 'json'))
  })

  it('is byte-identical for the same plan, whatever the order of its changes', () => {
    const a = renderPlan(samplePlan(), 'json')
    const shuffled = samplePlan()
    shuffled.changes.reverse()
    expect(renderPlan(samplePlan(), 'json')).toBe(a)
    expect(renderPlan(shuffled, 'json')).toBe(a)
  })

  it('writes a missing before or a removed after as null', () => {
    const fields = planDocument(samplePlan()).changes.flatMap((c) => c.fields)
    expect(fields.find((f) => f.path === 'comment')).toMatchObject({ before: null, after: 'Decommissioned in October' })
    expect(fields.find((f) => f.path === 'site.headers[X-Old]')).toMatchObject({ after: null })
  })

  it('planDocument is plain JSON (what JSON.parse gives back) and shares nothing with the plan', () => {
    const plan = samplePlan()
    const document = planDocument(plan)
    expect(JSON.parse(JSON.stringify(document))).toStrictEqual(document)
    ;(document.changes[0]!.fields[2]!.after as unknown as unknown[]).push('mutated')
    expect(plan.changes.find((c) => c.kind === 'target')!.fields[2]!.after).toHaveLength(2)
  })

  it('apply: each change with its result, error and warnings; the summary with the outcomes', () => {
    const document = applyDocument(sampleReport())
    expect(document.summary).toEqual({ create: 0, change: 3, unchanged: 41, applied: 1, failed: 2, not_applied: 1 })
    expect(document.changes.map(({ kind, result, error, warnings }) => ({ kind, result, error, warnings }))).toMatchInlineSnapshot(`
      [
        {
          "error": undefined,
          "kind": "target",
          "result": "applied",
          "warnings": [
            "site.desc was accepted but not stored by the service",
          ],
        },
        {
          "error": "400 Bad Request: state: "ARCHIVED" is not a valid choice.
      owners: unknown team",
          "kind": "asset",
          "result": "failed",
          "warnings": undefined,
        },
        {
          "error": undefined,
          "kind": "agent",
          "result": "failed",
          "warnings": undefined,
        },
      ]
    `)
    // A change never sent failed (the contract's two results), and says it was not sent.
    expect(document.changes.map((c) => c.sent)).toEqual([undefined, undefined, false])
    expect(renderApplyReport(sampleReport(), 'json').endsWith('}\n')).toBe(true)
  })
})
