import type { Plan } from './model.js'

export interface UntrackedSecret {
  kind: string
  id: string
  path: string
}

/**
 * Drift is what someone changed on the service. A secret the service hides and the state has not
 * recorded yet ("not yet tracked") cannot be checked, so it is set aside rather than reported as drift.
 */
export function setAsideUntracked(plan: Plan): { plan: Plan; untracked: UntrackedSecret[] } {
  const untracked: UntrackedSecret[] = []
  const changes = plan.changes
    .map((change) => {
      const fields = change.fields.filter((field) => {
        if (field.reason !== 'not yet tracked') return true
        untracked.push({ kind: change.kind, id: change.id, path: field.path })
        return false
      })
      return { ...change, fields }
    })
    .filter((change) => change.fields.length > 0)
  const moved = plan.changes.length - changes.length
  // A creation has no secret to set aside (the service has none of its fields): it stays counted as one.
  const create = plan.summary.create ?? 0
  return { plan: { ...plan, changes, summary: { ...(create > 0 ? { create } : {}), change: changes.length - create, unchanged: plan.summary.unchanged + moved } }, untracked }
}
