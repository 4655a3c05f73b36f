// Loader fuzzing on every `npm test`: a tenth of the full run's cases (545), from a fixed seed so
// that this run is the same each time. The full run (5,450 cases, a fresh seed) is
// fuzz-loader.slow.test.ts, in `npm run test:slow`; the generators and checks are fuzz-loader.ts.
import { describeLoaderFuzzing } from './fuzz-loader.js'

describeLoaderFuzzing({ share: 0.1, seed: 20_261_126 })
