import { Command, Flags } from '../oclif.js'
import { connectionFlags, pathArgs, pathArguments } from '../flags.js'

export default class Audit extends Command {
  static override summary = 'Check the policies against every live resource of the account, declared or not.'
  static override description =
    'Loads the policy rules of the configuration, reads every live resource of each kind they name (list pages), and checks each: a declared resource as it will be after the apply, any other as it is. Violations are printed as FILE:LINE:COLUMN: policy NAME: KIND ID: MESSAGE (a resource no file declares is placed at its rule). Exit 0 when no rule of level error is broken, 2 when one is, 1 on error.'
  static override examples = [
    '<%= config.bin %> audit',
    '<%= config.bin %> audit config/ --format github',
    '<%= config.bin %> audit --format json > audit.json',
  ]
  static override strict = false
  static override args = pathArgs
  static override flags = {
    ...connectionFlags,
    format: Flags.string({ char: 'f', description: 'Output format.', options: ['text', 'json', 'markdown', 'github'], default: 'text' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Audit)
    const [{ runAudit }, { processIo }] = await Promise.all([import('../run/audit.js'), import('../../core/io.js')])
    process.exitCode = await runAudit(
      {
        paths: pathArguments(argv, this.argv),
        format: flags.format as 'text' | 'json' | 'markdown' | 'github',
        apiUrl: flags['api-url'],
        parallelism: flags.parallelism,
        insecureHttp: flags['insecure-http'],
        debug: flags.debug,
      },
      processIo(),
    )
  }
}
