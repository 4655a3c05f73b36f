// Issue 8, size, the full case (`npm run test:slow`): a configuration of 100,000 resources
// validates (in 100 files and in one of 17 MB) and plans against the emulator within 500 MB.
import { beforeAll } from 'vitest'
import { ensureBuilt } from '../config/helpers.js'
import { describeConfigurationOf } from './size.js'

beforeAll(ensureBuilt, 120_000)

describeConfigurationOf(100_000)
