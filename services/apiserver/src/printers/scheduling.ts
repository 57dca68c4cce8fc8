// Rows of PriorityClasses (upstream printPriorityClass).

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table.js';

export const priorityClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Value', 'integer', 'The value of this priority class: pods with this class get it as spec.priority.'),
    col('Global-Default', 'boolean', 'Whether pods that name no class get this one.'),
    AGE_COLUMN,
    col('PreemptionPolicy', 'string', 'Whether pods of this class may preempt pods of lower priority.'),
  ],
  cells(pc, now) {
    return [pc.metadata?.name, typeof pc.value === 'number' ? pc.value : 0, pc.globalDefault === true, since(pc.metadata?.creationTimestamp, now), pc.preemptionPolicy ?? ''];
  },
};
