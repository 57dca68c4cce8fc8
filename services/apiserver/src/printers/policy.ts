// Rows of PodDisruptionBudgets (upstream printPodDisruptionBudget): the
// budget as written (N/A for the bound not set) and what the disruption
// controller last computed it allows.

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const bound = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A');

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Min Available', 'string', 'The minimum number of pods that must be available.'),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  cells(pdb, now) {
    const spec: Obj = pdb.spec ?? {};
    const allowed = pdb.status?.disruptionsAllowed;
    return [pdb.metadata?.name, bound(spec.minAvailable), bound(spec.maxUnavailable), typeof allowed === 'number' ? allowed : 0, since(pdb.metadata?.creationTimestamp, now)];
  },
};
