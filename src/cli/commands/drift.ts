import { Command, Flags } from '../oclif.js'
import { pathArgs, planFlags, planInputs } from '../flags.js'

export default class Drift extends Command {
  static override summary = 'Report what differs on the service from the configuration (for scheduled checks).'
  static override description =
    'Like plan, worded as drift: reads the live resources the configuration declares and reports every managed field someone changed by hand. Exit 0 when there is no drift, 2 when drift is found, 1 on error.'
  static override examples = [
    '<%= config.bin %> drift',
    '<%= config.bin %> drift config/ --format github',
    '<%= config.bin %> drift --format json > drift.json',
    '<%= config.bin %> drift --unmanaged',
  ]
  static override strict = false
  static override args = pathArgs
  static override flags = {
    ...planFlags,
    unmanaged: Flags.boolean({ description: 'Also list the live targets and agents that no file declares (by id, URL or name); they count as drift.' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Drift)
    const inputs = planInputs(flags, argv, this.argv)
    // The list reads leave before the use case's modules load (most of the start-up).
    const ahead = (await import('../run/early-reads.js')).readsAhead(inputs)
    try {
      await ahead.sent()
      const { runPlan } = await import('../run/plan.js')
      process.exitCode = await runPlan({ mode: 'drift', ...inputs, unmanaged: flags.unmanaged, readsAhead: ahead }, ahead.io)
    } finally {
      await ahead.release()
    }
  }
}
