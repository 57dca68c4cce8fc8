// Rows of the small kinds: events, leases, configmaps, secrets, namespaces,
// serviceaccounts (upstream: printEvent, printLease, printConfigMap, ...).

import { eventToCore, type EventsEvent } from '@kubelab/api';
import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const count = (o: unknown): number => (o && typeof o === 'object' ? Object.keys(o).length : 0);

function eventSource(ev: Obj): string {
  const component: string = ev.source?.component || ev.reportingComponent || '';
  const instance: string = ev.source?.host || ev.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

export const eventPrinter: Printer = {
  columns: [
    col('Last Seen', 'string', 'How long ago the event was last observed.'),
    col('Type', 'string', 'Normal or Warning.'),
    col('Reason', 'string', 'A short machine-readable reason for the event.'),
    col('Object', 'string', 'The object the event is about.'),
    col('Subobject', 'string', 'The part of the object the event is about (a container).', 1),
    col('Source', 'string', 'The component (and host) that reported the event.', 1),
    col('Message', 'string', 'A human-readable description of what happened.'),
    col('First Seen', 'string', 'How long ago the event was first observed.', 1),
    col('Count', 'integer', 'How many times the event occurred.', 1),
    col('Name', 'string', 'The name of the Event object.', 1),
  ],
  cells(ev, now) {
    const first = ev.firstTimestamp ? since(ev.firstTimestamp, now) : since(ev.eventTime, now);
    let last = ev.lastTimestamp ? since(ev.lastTimestamp, now) : first;
    let n: number = ev.count ?? 0;
    if (ev.series) {
      last = since(ev.series.lastObservedTime, now);
      n = ev.series.count ?? 0;
    } else if (n === 0) {
      n = 1;
    }
    const io: Obj = ev.involvedObject ?? {};
    const kind = String(io.kind ?? '').toLowerCase();
    const target = io.name ? `${kind}/${io.name}` : kind;
    return [last, ev.type ?? '', ev.reason ?? '', target, io.fieldPath ?? '', eventSource(ev), String(ev.message ?? '').trim(), first, n, ev.metadata?.name];
  },
};

/** events.k8s.io/v1 Events print as core's (upstream: the internal Event both versions convert to). */
export const eventsEventPrinter: Printer = {
  columns: eventPrinter.columns,
  cells: (ev, now) => eventPrinter.cells(eventToCore(ev as EventsEvent), now),
};

export const leasePrinter: Printer = {
  columns: [NAME_COLUMN, col('Holder', 'string', 'The identity of the current holder of the lease.'), AGE_COLUMN],
  cells(l, now) {
    return [l.metadata?.name, l.spec?.holderIdentity ?? '', since(l.metadata?.creationTimestamp, now)];
  },
};

export const configMapPrinter: Printer = {
  columns: [NAME_COLUMN, col('Data', 'integer', 'Number of keys in data and binaryData.'), AGE_COLUMN],
  cells(cm, now) {
    return [cm.metadata?.name, count(cm.data) + count(cm.binaryData), since(cm.metadata?.creationTimestamp, now)];
  },
};

export const secretPrinter: Printer = {
  columns: [NAME_COLUMN, col('Type', 'string', 'The type of the secret.'), col('Data', 'integer', 'Number of keys in data.'), AGE_COLUMN],
  cells(s, now) {
    return [s.metadata?.name, s.type ?? '', count(s.data), since(s.metadata?.creationTimestamp, now)];
  },
};

export const namespacePrinter: Printer = {
  columns: [NAME_COLUMN, col('Status', 'string', 'The namespace phase: Active or Terminating.'), AGE_COLUMN],
  cells(ns, now) {
    return [ns.metadata?.name, ns.status?.phase ?? '', since(ns.metadata?.creationTimestamp, now)];
  },
};

export const serviceAccountPrinter: Printer = {
  columns: [NAME_COLUMN, col('Secrets', 'integer', 'Number of secrets listed by the service account.'), AGE_COLUMN],
  cells(sa, now) {
    return [sa.metadata?.name, (sa.secrets ?? []).length, since(sa.metadata?.creationTimestamp, now)];
  },
};

/** For kinds without a printer: NAME and CREATED AT (upstream's default table convertor). */
export const defaultPrinter: Printer = {
  columns: [NAME_COLUMN, col('Created At', 'date', 'When the object was created.')],
  cells(o) {
    return [o.metadata?.name, o.metadata?.creationTimestamp ?? ''];
  },
};

/** upstream printComponentStatus: its Healthy condition as Healthy (True) or Unhealthy, with the probe's message and error. */
export const componentStatusPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Status of the component conditions'),
    col('Message', 'string', 'Message of the component conditions'),
    col('Error', 'string', 'Error of the component conditions'),
  ],
  cells(cs) {
    const c = (cs.conditions as Obj[] | undefined)?.find((x) => x.type === 'Healthy');
    return [cs.metadata?.name, c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown', c?.message ?? '', c?.error ?? ''];
  },
};
