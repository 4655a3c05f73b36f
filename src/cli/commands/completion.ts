import { Args, Command } from '../oclif.js'

export default class Completion extends Command {
  static override summary = 'Print a shell completion script (bash or zsh) for commands, flags, their values and file names.'
  static override description =
    'Completes command names, long and short flags, the values of --format, --kind and --secrets, and file names for PATH, --state, --out, --plan and --seed. Load it from your shell start-up file: `source <(scansync completion bash)` in ~/.bashrc, `source <(scansync completion zsh)` in ~/.zshrc.'
  static override examples = [
    { description: 'Print the bash script:', command: '<%= config.bin %> completion bash' },
    { description: 'bash, in ~/.bashrc:', command: 'source <(<%= config.bin %> completion bash)' },
    { description: 'zsh, in ~/.zshrc:', command: 'source <(<%= config.bin %> completion zsh)' },
  ]
  static override args = {
    shell: Args.string({ description: 'The shell.', options: ['bash', 'zsh'], required: true }),
  }

  async run(): Promise<void> {
    const { args } = await this.parse(Completion)
    const { bashScript, zshScript } = await import('../completion/script.js')
    const commands = this.config.commands
      // Every command `scansync --help` lists, the plugins' help and autocomplete included.
      .filter((c) => !c.hidden)
      .map((c) => ({ id: c.id, flags: Object.fromEntries(Object.entries(c.flags).filter(([, f]) => !f.hidden)) as never }))
      .sort((a, b) => a.id.localeCompare(b.id))
    const [{ processIo, wholeWrites }, { guard }, { EXIT }] = await Promise.all([import('../../core/io.js'), import('../run/errors.js'), import('../../core/exit-codes.js')])
    // `completion bash > file`: written whole (not cut short on a disk nearly full) or said in one
    // line, exit 1, as schema's output is.
    process.exitCode = await guard(processIo(), {}, async () => {
      wholeWrites(process.stdout, 1, 'standard output').write((args.shell === 'zsh' ? zshScript : bashScript)(this.config.bin, commands))
      return EXIT.ok
    })
  }
}
