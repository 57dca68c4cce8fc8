// Server-side printing: objects → metav1.Table, as the apiserver answers
// `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`.

import { certificateSigningRequestPrinter } from './certificates.js';
import { apiServicePrinter } from './apiregistration.js';
import { daemonSetPrinter, deploymentPrinter, replicaSetPrinter } from './apps.js';
import { controllerRevisionPrinter, statefulSetPrinter } from './statefulset.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { componentStatusPrinter, configMapPrinter, defaultPrinter, eventPrinter, eventsEventPrinter, leasePrinter, namespacePrinter, secretPrinter, serviceAccountPrinter } from './misc.js';
import { nodePrinter } from './node.js';
import { podPrinter } from './pod.js';
import { podDisruptionBudgetPrinter } from './policy.js';
import { horizontalPodAutoscalerPrinter } from './autoscaling.js';
import { priorityClassPrinter } from './scheduling.js';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol.js';
import { limitRangePrinter } from './limitrange.js';
import { resourceQuotaPrinter } from './resourcequota.js';
import { roleBindingPrinter } from './rbac.js';
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './service.js';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from './storage.js';
import { ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking.js';
import type { Obj, Printer, Table, TableRow } from './table.js';

export { humanDuration, since } from './duration.js';
export { summarizePod, type PodSummary } from './pod.js';
export { nodeRoles, nodeStatus } from './node.js';
export { formatLabels, selectorString } from './labels.js';
export type { Printer, Table, TableRow, TableColumnDefinition } from './table.js';

/** Kind (schema type where two kinds share a name) → printer; one entry per kind kubelab serves. */
export const PRINTERS: ReadonlyMap<string, Printer> = new Map([
  ['Pod', podPrinter],
  ['Node', nodePrinter],
  ['ComponentStatus', componentStatusPrinter],
  ['Deployment', deploymentPrinter],
  ['ReplicaSet', replicaSetPrinter],
  ['DaemonSet', daemonSetPrinter],
  ['StatefulSet', statefulSetPrinter],
  ['ControllerRevision', controllerRevisionPrinter],
  ['Service', servicePrinter],
  ['Endpoints', endpointsPrinter],
  ['EndpointSlice', endpointSlicePrinter],
  ['Event', eventPrinter],
  // events.k8s.io/v1 Event, by its schema type (ResourceInfo.schemaType).
  ['EventsEvent', eventsEventPrinter],
  ['Lease', leasePrinter],
  ['ConfigMap', configMapPrinter],
  ['Secret', secretPrinter],
  ['Namespace', namespacePrinter],
  ['ServiceAccount', serviceAccountPrinter],
  ['RoleBinding', roleBindingPrinter],
  ['ClusterRoleBinding', roleBindingPrinter],
  ['CertificateSigningRequest', certificateSigningRequestPrinter],
  ['APIService', apiServicePrinter],
  ['Job', jobPrinter],
  ['CronJob', cronJobPrinter],
  ['PersistentVolume', persistentVolumePrinter],
  ['PersistentVolumeClaim', persistentVolumeClaimPrinter],
  ['StorageClass', storageClassPrinter],
  ['PodDisruptionBudget', podDisruptionBudgetPrinter],
  ['PriorityClass', priorityClassPrinter],
  ['FlowSchema', flowSchemaPrinter],
  ['PriorityLevelConfiguration', priorityLevelConfigurationPrinter],
  ['LimitRange', limitRangePrinter],
  ['ResourceQuota', resourceQuotaPrinter],
  ['HorizontalPodAutoscaler', horizontalPodAutoscalerPrinter],
  ['NetworkPolicy', networkPolicyPrinter],
  ['Ingress', ingressPrinter],
  ['IngressClass', ingressClassPrinter],
]);

export function printerFor(kind: string): Printer {
  return PRINTERS.get(kind) ?? defaultPrinter;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface PrintOptions {
  now: Date;
  /** What each row carries in `object` (upstream's `includeObject`; default Metadata). */
  includeObject?: IncludeObject;
  /** Leave columnDefinitions empty (watch events after the first). */
  noHeaders?: boolean;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** The row object: PartialObjectMetadata by default, the full object, or nothing. */
function rowObject(obj: Obj, include: IncludeObject): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata ?? {} };
}

/** A Table of `objects`, all of `kind` (or printed by the given printer: a custom resource's columns). */
export function printTable(kind: string | Printer, objects: readonly Obj[], opts: PrintOptions): Table {
  const printer = typeof kind === 'string' ? printerFor(kind) : kind;
  const include = opts.includeObject ?? 'Metadata';
  const rows: TableRow[] = (printer.compare ? [...objects].sort(printer.compare) : objects).map((o) => {
    const row: TableRow = { cells: printer.cells(o, opts.now) };
    const object = rowObject(o, include);
    if (object !== undefined) row.object = object;
    return row;
  });
  const metadata: Table['metadata'] = {};
  if (opts.resourceVersion !== undefined) metadata.resourceVersion = opts.resourceVersion;
  if (opts.continue) metadata.continue = opts.continue;
  if (opts.remainingItemCount !== undefined) metadata.remainingItemCount = opts.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: opts.noHeaders ? [] : printer.columns,
    rows,
  };
}
