import { UsageError } from '../core/errors.js'
import type { Plan } from './model.js'

/** `--max-changes N`: a plan with more changed resources is refused whole, before anything is sent. */
export function checkMaxChanges(plan: Plan, maxChanges: number | undefined): void {
  if (maxChanges === undefined || plan.changes.length <= maxChanges) return
  const count = plan.changes.length
  throw new UsageError(`the plan has ${count} ${count === 1 ? 'change' : 'changes'}, more than --max-changes ${maxChanges}; nothing was sent`)
}
