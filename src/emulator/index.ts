/** The embedded service emulator: a real HTTP server standing in for the scanning service. */
export type { Emulator, EmulatorKind, EmulatorOptions, EmulatorSeed, FaultSpec, FaultType, RecordedRequest } from './types.js'
export { FAULT_TYPES } from './types.js'
export { parseFaultSpec } from './faults.js'
export { DEFAULT_TOKEN, startEmulator } from './server.js'
export { readSeedFile } from './seed-file.js'
