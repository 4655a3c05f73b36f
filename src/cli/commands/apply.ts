import { Command, Flags } from '../oclif.js'
import { pathArgs, pathFlag, planFlags, planInputs } from '../flags.js'

export default class Apply extends Command {
  static override summary = 'Plan, confirm, and send the changes.'
  static override description =
    'Plans as `scansync plan` does, asks for confirmation on a terminal (without one it refuses unless --auto-approve is given), then sends the requests in parallel with retries. A failed change does not stop the others; every result is reported. With --plan FILE it applies a saved plan after checking that none of its resources changed on the service since. Exit 0 when all changes were applied (or there was nothing to do), 1 on error or when any change failed, 130 when interrupted.'
  static override examples = [
    '<%= config.bin %> apply',
    '<%= config.bin %> apply examples/config --auto-approve',
    '<%= config.bin %> apply --plan release.plan.json --auto-approve',
    '<%= config.bin %> apply --auto-approve --max-changes 20 --format json',
  ]
  static override strict = false
  static override args = pathArgs
  static override flags = {
    ...planFlags,
    // What apply prints quietly differs from plan and drift: each change's outcome stays.
    quiet: Flags.boolean({ char: 'q', description: "Text format: with --auto-approve, no plan: each resource's result, the recap of those to look at and the summary line (and errors); without it, the plan is still shown before the question." }),
    'auto-approve': Flags.boolean({ description: 'Apply without asking (required when there is no terminal, as in CI).' }),
    'max-changes': Flags.integer({ description: 'Refuse a plan with more than N changed resources.', min: 0, helpValue: 'N' }),
    plan: Flags.string({ description: 'Apply a plan saved by `scansync plan --out FILE`.', helpValue: 'FILE' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Apply)
    const plan = pathFlag('plan', flags.plan, 'the file saved by scansync plan --out, or leave the flag out to plan from the configuration')
    const inputs = { ...planInputs(flags, argv, this.argv), autoApprove: flags['auto-approve'], maxChanges: flags['max-changes'], plan }
    // The list reads leave before the use case's modules load (most of the start-up); a saved plan reads none.
    const ahead = plan ? undefined : (await import('../run/early-reads.js')).readsAhead(inputs)
    try {
      await ahead?.sent()
      const [{ runApply }, { processIo }] = await Promise.all([import('../run/apply.js'), import('../../core/io.js')])
      process.exitCode = await runApply({ ...inputs, readsAhead: ahead }, ahead?.io ?? processIo())
    } finally {
      await ahead?.release()
    }
  }
}
