import { Args, Command, Errors, Flags } from '../oclif.js'

export default class Init extends Command {
  static override summary = 'Write a starter configuration directory: one example file per kind, a README and a .gitignore.'
  static override description =
    'Writes targets.yaml, assets.yaml and agents.yaml into DIR (default: the current directory), each starting with the yaml-language-server schema line (pointing at the schemas/config.schema.json of the copy of scansync in the repository; without one, a comment saying how to get it: never an absolute path) and valid as written (`scansync validate` passes with no environment variable set), a README section on how the repository is used, and .gitignore lines that keep .scansync/state.json in git. An existing README.md or .gitignore is added to, never replaced; existing example files are kept unless --force. Exit 0 when written, 1 when nothing was written.'
  static override examples = [
    '<%= config.bin %> init config',
    '<%= config.bin %> init',
    { description: 'Replace example files written before:', command: '<%= config.bin %> init config --force' },
    { description: 'Then:', command: '<%= config.bin %> validate config' },
  ]
  static override args = {
    dir: Args.string({ description: 'Directory to write into (created when missing).', default: '.', ignoreStdin: true }),
  }
  static override flags = {
    force: Flags.boolean({ description: 'Replace targets.yaml, assets.yaml and agents.yaml when they exist.' }),
    quiet: Flags.boolean({ char: 'q', description: 'Print nothing but errors.' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Init)
    // `scansync init "$CONFIG_DIR"` with the variable unset: not the current directory (DIR left out), as an empty PATH is refused (flags.ts pathArguments).
    if (args.dir === '') throw new Errors.CLIError('DIR is empty: name the directory to write into, or leave DIR out to write into the current directory')
    const [{ runInit }, { processIo }] = await Promise.all([import('../run/init.js'), import('../../core/io.js')])
    process.exitCode = await runInit({ dir: args.dir, force: flags.force, quiet: flags.quiet }, processIo())
  }
}
