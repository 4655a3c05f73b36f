import { Command, Flags } from '../oclif.js'
import { pathArgs, pathFlag, planFlags, planInputs } from '../flags.js'

export default class Plan extends Command {
  static override summary = 'Show the changes that would bring the service in line with the configuration.'
  static override description =
    'Validates the configuration (nothing is sent if it is invalid), reads the live resources it declares and prints the smallest PATCH/PUT requests that would make them match. Only fields written in the YAML are compared. Exit 0 when planned; with --detailed-exitcode, 0 means no changes and 2 means changes; 1 is an error.'
  static override examples = [
    '<%= config.bin %> plan',
    '<%= config.bin %> plan examples/config --format json',
    '<%= config.bin %> plan --detailed-exitcode --format markdown > plan.md',
    '<%= config.bin %> plan --kind target --id 2DZkoZH8WMEM',
    '<%= config.bin %> plan --out release.plan.json && <%= config.bin %> apply --plan release.plan.json',
  ]
  static override strict = false
  static override args = pathArgs
  static override flags = {
    ...planFlags,
    'detailed-exitcode': Flags.boolean({ description: 'Exit 2 when there are changes, 0 when there are none.' }),
    out: Flags.string({ description: 'Save the plan to FILE for `scansync apply --plan FILE` (secrets kept as ${NAME} references).', helpValue: 'FILE' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Plan)
    const inputs = planInputs(flags, argv, this.argv)
    const out = pathFlag('out', flags.out, 'the file to save the plan to, or leave the flag out')
    // The list reads leave before the use case's modules load (most of the start-up).
    const ahead = (await import('../run/early-reads.js')).readsAhead(inputs)
    try {
      await ahead.sent()
      const { runPlan } = await import('../run/plan.js')
      process.exitCode = await runPlan({ mode: 'plan', ...inputs, detailedExitcode: flags['detailed-exitcode'], out, readsAhead: ahead }, ahead.io)
    } finally {
      await ahead.release()
    }
  }
}
