import { Command } from '../oclif.js'

export default class Schema extends Command {
  static override summary = 'Print the JSON Schema of the configuration files.'
  static override description =
    'Editors use it to complete and check the YAML files: put `# yaml-language-server: $schema=<path to config.schema.json>` at the top of a file.'
  static override examples = ['<%= config.bin %> schema > scansync.schema.json']

  async run(): Promise<void> {
    await this.parse(Schema)
    const { readFileSync } = await import('node:fs')
    const { SCHEMAS_DIR } = await import('../../schema/files.js')
    process.stdout.write(readFileSync(SCHEMAS_DIR + 'config.schema.json', 'utf8'))
  }
}
