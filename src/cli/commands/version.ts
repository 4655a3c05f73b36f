import { Command } from '../oclif.js'

export default class Version extends Command {
  static override summary = 'Print the version of scansync, as --version does.'
  static override description = 'Prints scansync/<version> <platform>-<arch> node-<version>, the line to quote in a bug report.'
  static override examples = ['<%= config.bin %> version']

  async run(): Promise<void> {
    await this.parse(Version)
    this.log(this.config.userAgent)
  }
}
