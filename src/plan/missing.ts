import type { DesiredResource } from '../core/types.js'
import { KIND_ORDER, KINDS } from '../resources/index.js'
import { displayNameOf, type PlanResult } from './build-plan.js'
import type { Missing } from './model.js'

/**
 * `drift`: the plan with the resources declared by id that the service no longer has (someone
 * deleted them by hand), in plan order. They are drift, as a changed field is; they are not
 * counted unchanged. Without any, the plan as it is.
 */
export function withMissing(result: PlanResult, gone: readonly DesiredResource[], holds?: (text: string) => boolean): PlanResult {
  if (gone.length === 0) return result
  const missing: Missing[] = gone
    .map((desired) => ({ kind: desired.kind, id: desired.id, name: displayNameOf(KINDS[desired.kind], desired, {}, holds), source: desired.source }))
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const { summary } = result.plan
  return { ...result, plan: { ...result.plan, summary: { ...summary, unchanged: summary.unchanged - missing.length, missing: missing.length }, missing } }
}
