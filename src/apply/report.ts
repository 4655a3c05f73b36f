import type { ApplyReport, ChangeResult, Plan } from '../plan/model.js'

export function reportOf(plan: Plan, results: readonly ChangeResult[], interrupted: boolean): ApplyReport {
  const count = (outcome: string) => results.filter((r) => r.result === outcome).length
  return {
    results: [...results],
    summary: { ...(plan.summary.create ? { create: plan.summary.create } : {}), change: plan.summary.change, unchanged: plan.summary.unchanged, applied: count('applied'), failed: count('failed'), not_applied: count('not_applied') },
    ...(interrupted ? { interrupted } : {}),
  }
}

/** Where an apply stands, as changes start and settle: what a second Ctrl-C can say. */
export class Tally {
  private readonly started = new Set<string>()
  private readonly settled = new Map<string, string>()

  constructor(private readonly total: number) {}

  start(change: Keyed): void {
    this.started.add(keyOf(change))
  }

  settle(result: Keyed & { result: string }): void {
    this.settled.set(keyOf(result), result.result)
  }

  /** One sentence: applied, failed, in flight (may or may not have landed), not sent. */
  words(): string {
    const count = (outcome: string) => [...this.settled.values()].filter((r) => r === outcome).length
    const applied = count('applied')
    const failed = count('failed')
    const inFlight = [...this.started].filter((key) => !this.settled.has(key)).length
    const notSent = this.total - applied - failed - inFlight
    return `${applied} applied, ${failed} failed, ${inFlight} in flight (they may or may not have been applied), ${notSent} not sent`
  }
}

type Keyed = { kind: string; id: string; naturalKey?: { value: string } }

/** A creation is known by its natural key: it has no id when it starts, and one when it settles. */
const keyOf = (change: Keyed) => (change.naturalKey ? `${change.kind}+${change.naturalKey.value}` : `${change.kind}/${change.id}`)
