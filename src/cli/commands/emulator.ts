import { Command, Flags } from '../oclif.js'

export default class Emulator extends Command {
  static override summary = 'Run the embedded service emulator: a local stand-in for the scanning service.'
  static override description =
    'Serves targets, discovered assets and scanning agents over HTTP as the service does (GET by id, list pages, PATCH/PUT with validation, JWT token check), with optional latency, obfuscation of sensitive values and injected faults. Prints one line, `listening on http://HOST:PORT`, and serves until SIGINT or SIGTERM. Exit 0 after a clean stop, 1 when it could not start.\n\nA change "by hand" (as a person in the web interface would make it, to rehearse drift): PATCH /_emulator/targets/ID/ (or /_emulator/discovery/assets/ID/, /_emulator/scanning-agents/ID/) with the token and a JSON body of the fields to change, deep-merged into the stored resource (lists replaced whole); a value of a type the service never answers (a name given as a number, say) is refused with 400, as a seed file holding one is refused at start. See the example below; `scansync drift` then reports the change.'
  static override examples = [
    '<%= config.bin %> emulator --seed examples/emulator-seed.json',
    '<%= config.bin %> emulator --seed examples/emulator-seed.json --port 8080 --latency 20 --obfuscate',
    '<%= config.bin %> emulator --fault 429:0.2,retry-after=1 --fault 503:x3 --fault-seed 7',
    {
      description: 'A hand change, then drift reports it:',
      command:
        'curl -X PATCH -H "Authorization: JWT demo-token" -H "Content-Type: application/json" -d \'{"site": {"name": "Edited by hand"}}\' http://127.0.0.1:8080/_emulator/targets/2DZkoZH8WMEM/',
    },
  ]
  static override flags = {
    host: Flags.string({ description: 'Address to listen on; a non-loopback one needs --allow-remote.', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free one (printed).', default: 0, min: 0, max: 65535 }),
    seed: Flags.string({ description: 'Seed data: a .json or .yaml file with teams, agents, targets and assets.' }),
    token: Flags.string({ description: 'The API token clients must send as `Authorization: JWT <token>`.', default: 'demo-token' }),
    latency: Flags.integer({ description: 'Delay before every response, in milliseconds.', min: 0 }),
    obfuscate: Flags.boolean({ description: 'Return sensitive values as OBFUSCATED_<hash>.' }),
    fault: Flags.string({
      description:
        'Inject a fault (repeatable): <type>[:<share>|:x<count>][,method=M][,path=/prefix/][,retry-after=S][,ms=N]; types 429, 500, 502, 502-html, 503, 504, drop, drop-mid, slow, truncate, not-resource.',
      multiple: true,
    }),
    'fault-seed': Flags.integer({ description: 'Seed of the choice of faulted requests for faults given by share.' }),
    'allow-remote': Flags.boolean({ description: 'Allow listening on a non-loopback address.' }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Emulator)
    const [{ runEmulator }, { processIo }] = await Promise.all([import('../../emulator/cli.js'), import('../../core/io.js')])
    const signals = ['SIGINT', 'SIGTERM'] as const
    let onSignal = () => {}
    const stop = new Promise<void>((resolve) => (onSignal = resolve))
    for (const signal of signals) process.once(signal, onSignal)
    try {
      process.exitCode = await runEmulator(
        { ...flags, faultSeed: flags['fault-seed'], allowRemote: flags['allow-remote'] },
        processIo(),
        stop,
      )
    } finally {
      for (const signal of signals) process.off(signal, onSignal)
    }
  }
}
