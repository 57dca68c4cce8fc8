// Rows of LimitRanges (upstream printLimitRange): the name and when it was made, as a timestamp.

import { NAME_COLUMN, col, type Printer } from './table.js';

export const limitRangePrinter: Printer = {
  columns: [NAME_COLUMN, col('Created At', 'date', 'Time the LimitRange was created.')],
  cells(lr) {
    return [lr.metadata?.name, lr.metadata?.creationTimestamp ?? ''];
  },
};
