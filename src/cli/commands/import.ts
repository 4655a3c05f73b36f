import { Command, Flags } from '../oclif.js'
import { connectionFlags, listFlag, parseIds, parseKinds, pathFlag } from '../flags.js'
import { KIND_CHOICES, KIND_NAMES, KINDS } from '../../resources/index.js'

export default class Import extends Command {
  static override summary = 'Write YAML for resources that exist on the service, ready to plan clean.'
  static override description = [
    'Reads the live resources (--id, or --all through the list pages) and writes them in the configuration format: to stdout, or with --out DIR to targets.yaml, assets.yaml and agents.yaml (an existing file is kept unless --force, which replaces it whole; to add resources beside files already there, write them to stdout into a new file).',
    '',
    'Only what a person maintains is written: the writable fields of the request, labels and owners as names (with the colour when set), teams and the scanning agent by name where the name is unique (by id where it is shared or unknown). Left out: read-only fields, values equal to the documented defaults (unless --include-defaults), settings whose switch is off (API settings of a web application, otp_type without one-time passwords), and site.stack, which scans fill in.',
    '',
    'Secrets never appear. By default (--secrets omit) each secret is left out, with a comment on the resource naming its variable, TARGET_<ID>_<FIELD> (upper-case, other characters as _), and the lines to add; a part that cannot be written without it (basic_auth, a list of headers) is left out whole. The files then plan clean with no variable set, and those secrets are not managed until you add them.',
    '',
    'With --secrets reference each secret is written as a ${VARIABLE} reference instead, listed on stderr: set each variable before plan or apply. A value the service hides (OBFUSCATED_…) cannot be read back: where the request needs it (a password, a header value) it is still a reference, which plan reports as "not yet tracked" until the first apply; elsewhere it is left out, with a comment showing how to add it. A literal ${ in a live value is written $${.',
    '',
    'Each file starts with a yaml-language-server line pointing at the schemas/config.schema.json of the copy of scansync in the repository, relative to the output directory (to the current directory on stdout); without one, a comment saying how to get it: never an absolute path. The same service state always gives the same bytes.',
  ].join('\n')
  static override examples = [
    { description: 'Every target, into targets.yaml under config/:', command: '<%= config.bin %> import --kind target --all --out config' },
    { description: 'Two targets, to stdout:', command: '<%= config.bin %> import --kind target --id 2DZkoZH8WMEM --id 7QwErTy2UiOp > shop.yaml' },
    { description: 'Everything, replacing files written before:', command: `<%= config.bin %> import --kind ${KIND_NAMES.join(',')} --all --out config --force` },
    { description: 'Then check that it plans clean:', command: '<%= config.bin %> plan config --detailed-exitcode' },
  ]
  static override flags = {
    kind: Flags.string({ description: `The kind to import: ${KIND_CHOICES} (comma-separated or repeated with --all).`, helpValue: KIND_NAMES.join(','), ...listFlag, options: [...KIND_NAMES], required: true }),
    id: Flags.string({ description: 'Import these resources (comma-separated or repeated).', helpValue: 'ID', ...listFlag, exclusive: ['all'] }),
    all: Flags.boolean({ description: 'Import every resource of the kind (read through the list pages).', exclusive: ['id'] }),
    out: Flags.string({ description: `Write one file per kind (${KIND_NAMES.map((kind) => `${KINDS[kind].list}.yaml`).join(', ')}) into DIR instead of stdout.`, helpValue: 'DIR' }),
    force: Flags.boolean({ description: 'Overwrite files that exist in --out (each replaced whole: what it declared and this import does not write is then declared nowhere).' }),
    secrets: Flags.string({
      description: [
        'What to write for a secret (a password, a sensitive header or form value): omit (default) leaves it out, with a comment on the resource naming the variable to set and the lines to add; the next plan does not manage it, so it plans clean with no variable set.',
        'reference writes ${VARIABLE} references: set each variable before the next plan; one the service hides then plans as "not yet tracked" until the first apply.',
      ].join(' '),
      options: ['omit', 'reference'],
      default: 'omit',
    }),
    'include-defaults': Flags.boolean({ description: 'Also write values equal to the documented defaults, and settings whose switch is off.' }),
    ...connectionFlags,
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Import)
    const [{ runImport }, { processIo }] = await Promise.all([import('../run/import.js'), import('../../core/io.js')])
    process.exitCode = await runImport(
      {
        kinds: parseKinds(flags.kind) ?? [],
        ids: parseIds(flags.id),
        all: flags.all,
        out: pathFlag('out', flags.out, 'the directory to write the files into, or leave the flag out to write to stdout'),
        force: flags.force,
        includeDefaults: flags['include-defaults'],
        secrets: flags.secrets as 'omit' | 'reference',
        apiUrl: flags['api-url'],
        parallelism: flags.parallelism,
        insecureHttp: flags['insecure-http'],
        debug: flags.debug,
      },
      processIo(),
    )
  }
}
