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
    const [{ processIo, wholeWrites }, { guard }, { EXIT }] = await Promise.all([import('../../core/io.js'), import('../run/errors.js'), import('../../core/exit-codes.js')])
    // `schema > scansync.schema.json`: written whole (not cut short on a disk nearly full) or said in
    // one line, exit 1, as plan's output is; the schema itself is not redacted (it holds no secret).
    process.exitCode = await guard(processIo(), {}, async () => {
      wholeWrites(process.stdout, 1, 'standard output').write(readFileSync(SCHEMAS_DIR + 'config.schema.json', 'utf8'))
      return EXIT.ok
    })
  }
}
