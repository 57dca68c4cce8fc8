// Workload rows: deployments, replicasets, daemonsets (upstream:
// printDeployment, printReplicaSet, printDaemonSet).

import { since } from './duration.js';
import { formatLabels, selectorString } from './labels.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const WIDE_WORKLOAD_COLUMNS = [
  col('Containers', 'string', 'Names of the containers in the pod template.', 1),
  col('Images', 'string', 'Images of the containers in the pod template.', 1),
  col('Selector', 'string', 'The label selector of the pods it manages.', 1),
];

function wideCells(obj: Obj): string[] {
  const cs: Obj[] = obj.spec?.template?.spec?.containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(','), selectorString(obj.spec?.selector)];
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

export const deploymentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'Ready replicas out of desired replicas.'),
    col('Up-to-date', 'integer', 'Replicas running the current pod template.'),
    col('Available', 'integer', 'Replicas available to users (ready for at least minReadySeconds).'),
    AGE_COLUMN,
    ...WIDE_WORKLOAD_COLUMNS,
  ],
  cells(d, now) {
    const desired = d.spec?.replicas ?? 1;
    return [d.metadata?.name, `${n(d.status?.readyReplicas)}/${n(desired)}`, n(d.status?.updatedReplicas), n(d.status?.availableReplicas), since(d.metadata?.creationTimestamp, now), ...wideCells(d)];
  },
};

export const replicaSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'Desired replicas.'),
    col('Current', 'integer', 'Replicas that exist.'),
    col('Ready', 'integer', 'Replicas that are ready.'),
    AGE_COLUMN,
    ...WIDE_WORKLOAD_COLUMNS,
  ],
  cells(rs, now) {
    return [rs.metadata?.name, n(rs.spec?.replicas ?? 1), n(rs.status?.replicas), n(rs.status?.readyReplicas), since(rs.metadata?.creationTimestamp, now), ...wideCells(rs)];
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'Nodes that should run the daemon pod.'),
    col('Current', 'integer', 'Nodes running at least one daemon pod.'),
    col('Ready', 'integer', 'Nodes whose daemon pod is ready.'),
    col('Up-to-date', 'integer', 'Nodes running the current pod template.'),
    col('Available', 'integer', 'Nodes whose daemon pod is available.'),
    col('Node Selector', 'string', 'The node selector of the pod template.'),
    AGE_COLUMN,
    ...WIDE_WORKLOAD_COLUMNS,
  ],
  cells(ds, now) {
    const s: Obj = ds.status ?? {};
    return [
      ds.metadata?.name,
      n(s.desiredNumberScheduled),
      n(s.currentNumberScheduled),
      n(s.numberReady),
      n(s.updatedNumberScheduled),
      n(s.numberAvailable),
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      since(ds.metadata?.creationTimestamp, now),
      ...wideCells(ds),
    ];
  },
};
