// Rows of ResourceQuotas (upstream printResourceQuota): status.hard's
// resources sorted, each `name: used/hard`, the limits.* ones in LIMIT and
// the rest in REQUEST.

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table.js';

type Quota = { status?: { hard?: Record<string, string>; used?: Record<string, string> } };

export const resourceQuotaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(rq, now) {
    const { hard = {}, used = {} } = (rq as Quota).status ?? {};
    const request: string[] = [];
    const limit: string[] = [];
    for (const name of Object.keys(hard).sort()) {
      const parts = name.split('.');
      (parts.length > 1 && parts[0] === 'limits' ? limit : request).push(`${name}: ${used[name] ?? '0'}/${hard[name]}`);
    }
    return [rq.metadata?.name, since(rq.metadata?.creationTimestamp, now), request.join(', '), limit.join(', ')];
  },
};
