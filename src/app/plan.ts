import { colorEnabled, Io, line } from '../cli/io.js'
import { EXIT } from '../cli/exit-codes.js'
import { renderPlan, type Format } from '../render/index.js'
import { guard } from './errors.js'
import { PlanInputs, preparePlan } from './prepare-plan.js'
import { savedPlanDocument, writeSavedPlan } from './saved-plan.js'

export interface PlanOptions extends PlanInputs {
  format: Format
  mode: 'plan' | 'drift'
  detailedExitcode?: boolean
  /** Save the plan for `apply --plan`. */
  out?: string
}

/** `scansync plan` and `scansync drift`. */
export async function runPlan(options: PlanOptions, io: Io): Promise<number> {
  let redact: ((text: string) => string) | undefined
  return guard(io, { debug: options.debug, redact: (text) => (redact ? redact(text) : text) }, async () => {
    const prepared = await preparePlan(options, io, (r) => (redact = r))
    if (!prepared) return EXIT.error
    try {
      const { plan } = prepared.result
      // Built before anything is printed: a plan that cannot be saved is refused whole.
      const saved = options.out ? savedPlanDocument(prepared, options.paths, io) : undefined
      io.stdout.write(renderPlan(plan, options.format, { color: colorEnabled(io.stdout, io.env), mode: options.mode }))
      if (options.out && saved) {
        await writeSavedPlan(options.out, saved, io)
        line(io.stderr, `Saved the plan to ${options.out}; apply it with: scansync apply --plan ${options.out}`)
      }
      const changes = plan.changes.length > 0
      if (options.mode === 'drift') return changes ? EXIT.changes : EXIT.ok
      return changes && options.detailedExitcode ? EXIT.changes : EXIT.ok
    } finally {
      await prepared.session.client.close()
    }
  })
}
