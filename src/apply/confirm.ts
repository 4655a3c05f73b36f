import { UsageError } from '../core/errors.js'
import { line, type Io } from '../core/io.js'
import type { Plan } from '../plan/model.js'

/**
 * Asks on the terminal whether to apply the plan just shown; only "yes" goes ahead. Without a
 * terminal nobody can answer: refused, naming --auto-approve.
 */
export async function confirmApply(plan: Plan, io: Io): Promise<boolean> {
  if (!io.stdinIsTTY || !io.prompt) {
    throw new UsageError('refusing to apply without confirmation: there is no terminal to ask on; review the plan and pass --auto-approve')
  }
  const n = plan.changes.length
  const answer = await io.prompt(`\nApply ${n} ${n === 1 ? 'change' : 'changes'}? Only "yes" is accepted: `)
  if (answer.trim() === 'yes') return true
  line(io.stderr, 'Apply cancelled; nothing was sent.')
  return false
}
