// Rows of APIServices (upstream: kube-aggregator's registry/apiservice/etcd
// table convertor): where the group version is served (Local, or the
// Service as namespace/name) and its Available condition with the reason.

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

/** "True", "False (Reason)", or "Unknown" without an Available condition. */
export function apiServiceAvailable(o: Obj): string {
  const c = ((o.status?.conditions as Obj[] | undefined) ?? []).find((x) => x?.type === 'Available');
  if (!c) return 'Unknown';
  if (c.status !== 'True' && c.reason) return `${String(c.status)} (${String(c.reason)})`;
  return String(c.status);
}

export const apiServicePrinter: Printer = {
  columns: [NAME_COLUMN, col('Service', 'string', 'The reference to the service that hosts this API endpoint.'), col('Available', 'string', 'Whether this service is available.'), AGE_COLUMN],
  cells(o, now) {
    const svc = o.spec?.service as Obj | undefined | null;
    const service = svc ? `${String(svc.namespace ?? '')}/${String(svc.name ?? '')}` : 'Local';
    return [o.metadata?.name, service, apiServiceAvailable(o), since(o.metadata?.creationTimestamp, now)];
  },
};
