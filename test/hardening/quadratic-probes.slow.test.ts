// Issue 8, the loader's quadratic probes at full size (`npm run test:slow`): 500,000 blanks, a
// mapping of 100,000 keys, 20,000 duplicate keys, 100,000 unknown keys, 50,000 bad labels, each
// past vitest's timeout for the old code. See quadratic-probes.ts.
import { describeQuadraticProbes } from './quadratic-probes.js'

describeQuadraticProbes(1)
