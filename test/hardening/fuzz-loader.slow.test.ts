// Loader fuzzing, the full run (`npm run test:slow`): 5,450 cases from a fresh seed (fast-check
// prints it with a failure; SCANSYNC_FUZZ_SEED replays it). See fuzz-loader.ts.
import { describeLoaderFuzzing } from './fuzz-loader.js'

describeLoaderFuzzing({ share: 1 })
