import { Command, Flags } from '../oclif.js'
import { pathArgs, pathArguments } from '../flags.js'

export default class Validate extends Command {
  static override summary = 'Check the configuration files, without the network.'
  static override description =
    'Loads every *.yaml / *.yml below each PATH (default: the current directory), checks them against the schema, resolves ${VARIABLES} and checks that ids are unique. Errors are printed as FILE:LINE:COLUMN: message. Exit 0 when valid, 1 when not.'
  static override examples = [
    '<%= config.bin %> validate',
    '<%= config.bin %> validate examples/config',
    '<%= config.bin %> validate targets.yaml assets.yaml',
  ]
  static override strict = false
  static override args = pathArgs
  static override flags = {
    quiet: Flags.boolean({ char: 'q', description: 'Print nothing when the files are valid.' }),
  }

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Validate)
    const [{ runValidate }, { processIo }] = await Promise.all([import('../run/validate.js'), import('../../core/io.js')])
    process.exitCode = await runValidate({ paths: pathArguments(argv, this.argv), quiet: flags.quiet }, processIo())
  }
}
