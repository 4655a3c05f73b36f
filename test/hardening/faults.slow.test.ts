// Issue 8, the whole fault matrix (`npm run test:slow`), the rows that wait out timeouts included;
// faults.test.ts runs a row of each kind on every `npm test`. See fault-matrix.ts.
import { describeFaultMatrix } from './fault-matrix.js'
import { FAULT_ROWS } from './fault-table.js'

describeFaultMatrix(FAULT_ROWS)
