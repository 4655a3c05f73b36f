import type { SourcePosition } from '../../src/core/diagnostics.js'
import type { KindName } from '../../src/core/types.js'
import {
  SENSITIVE,
  type ApplyOutcome,
  type ApplyReport,
  type ChangeResult,
  type FieldChange,
  type Plan,
  type ResourceChange,
} from '../../src/plan/model.js'

export const at = (file: string, line: number, column = 1): SourcePosition => ({ file, line, column })

export function field(path: string, before: unknown, after: unknown, extra: Partial<FieldChange> = {}): FieldChange {
  return { path, before, after, sensitive: false, ...extra }
}

export function secret(path: string, reason?: FieldChange['reason'], extra: Partial<FieldChange> = {}): FieldChange {
  return { path, before: SENSITIVE, after: SENSITIVE, sensitive: true, ...(reason ? { reason } : {}), ...extra }
}

const PLURAL: Record<KindName, string> = { target: 'targets', asset: 'assets', agent: 'agents' }

export function change(kind: KindName, id: string, name: string | null, fields: FieldChange[], extra: Partial<ResourceChange> = {}): ResourceChange {
  return {
    kind,
    id,
    name,
    action: 'update',
    method: kind === 'asset' ? 'PUT' : 'PATCH',
    path: `/${PLURAL[kind]}/${id}/`,
    fields,
    ...extra,
  }
}

export function plan(changes: ResourceChange[], unchanged = 41): Plan {
  return { changes, summary: { change: changes.length, unchanged } }
}

export function result(of: ResourceChange, outcome: ApplyOutcome, extra: Partial<ChangeResult> = {}): ChangeResult {
  return { ...of, result: outcome, ...extra }
}

export function report(results: ChangeResult[], unchanged = 41, interrupted?: boolean): ApplyReport {
  const count = (outcome: ApplyOutcome) => results.filter((r) => r.result === outcome).length
  return {
    results,
    summary: { change: results.length, unchanged, applied: count('applied'), failed: count('failed'), not_applied: count('not_applied') },
    ...(interrupted === undefined ? {} : { interrupted }),
  }
}

export const shop = change(
  'target',
  '2DZkoZH8WMEM',
  'Shop (production)',
  [
    field('site.name', 'Shop', 'Shop (production)', { source: at('config/targets/shop.yaml', 4, 13) }),
    secret('site.basic_auth.password', 'changed in YAML', { source: at('config/targets/shop.yaml', 9, 19) }),
    field('labels', ['production'], ['production', { name: 'pci', color: '#d93f0b' }], { source: at('config/targets/shop.yaml', 11, 13) }),
    field('site.headers[X-Old]', { name: 'X-Old', value: '1' }, undefined, { source: at('config/targets/shop.yaml', 5, 5) }),
    field('scanning_agent', { id: '3kLx8Qy7Pb2m' }, null, { source: at('config/targets/shop.yaml', 20, 21) }),
  ],
  { source: at('config/targets/shop.yaml', 2, 5) },
)

export const archived = change('asset', '9fGh2Kd8LmQz', 'legacy.example.com', [field('state', 'ACTIVE', 'ARCHIVED'), field('comment', undefined, 'Decommissioned in October')], {
  source: at('config/assets.yaml', 2, 5),
})

export const agent = change('agent', '3kLx8Qy7Pb2m', null, [field('teams', [{ id: 'Tm8Kq2Xa9Lp3' }], [{ id: 'Tm8Kq2Xa9Lp3' }, { id: 'Tm1Zz9Yy8Xx7' }])])

/** A target, an asset and an agent, in an order other than the plan's (the renderers sort). */
export const samplePlan = (): Plan => plan([agent, shop, archived])

export const emptyPlan = (unchanged = 44): Plan => plan([], unchanged)

export const sampleReport = (): ApplyReport =>
  report(
    [
      result(shop, 'applied', { warnings: ['site.desc was accepted but not stored by the service'] }),
      result(archived, 'failed', { error: '400 Bad Request: state: "ARCHIVED" is not a valid choice.\nowners: unknown team' }),
      result(agent, 'not_applied'),
    ],
    41,
    true,
  )

/** `count` targets with `fieldsEach` changed fields each, for size tests. */
export function bigPlan(count: number, fieldsEach = 3): Plan {
  const changes: ResourceChange[] = []
  for (let i = 0; i < count; i++) {
    const id = `T${String(i).padStart(6, '0')}`
    const fields: FieldChange[] = []
    for (let f = 0; f < fieldsEach; f++) {
      fields.push(field(`site.whitelist[${f}]`, `/old/path/${i}/${f}`, `/new/path/${i}/${f}`, { source: at('config/targets/many.yaml', i * 10 + f + 1, 7) }))
    }
    changes.push(change('target', id, `Site number ${i}`, fields))
  }
  return plan(changes, 7)
}
