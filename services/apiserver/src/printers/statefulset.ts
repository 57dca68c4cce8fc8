// StatefulSet and ControllerRevision rows (upstream: printStatefulSet,
// printControllerRevision in pkg/printers/internalversion).

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

export const statefulSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'Number of the pod with ready state'),
    AGE_COLUMN,
    col('Containers', 'string', 'Names of each container in the template.', 1),
    col('Images', 'string', 'Images referenced by each container in the template.', 1),
  ],
  cells(sts, now) {
    const cs: Obj[] = sts.spec?.template?.spec?.containers ?? [];
    return [
      sts.metadata?.name,
      `${n(sts.status?.readyReplicas)}/${n(sts.spec?.replicas ?? 1)}`,
      since(sts.metadata?.creationTimestamp, now),
      cs.map((c) => c.name).join(','),
      cs.map((c) => c.image).join(','),
    ];
  },
};

/** `<kind>.<group>/<name>` of the controller owner reference (formatResourceName with the GroupKind), `<none>` without one. */
function controllerName(o: Obj): string {
  const ref: Obj | undefined = (o.metadata?.ownerReferences ?? []).find((r: Obj) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = String(ref.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return `${String(ref.kind).toLowerCase()}${group ? `.${group}` : ''}/${ref.name}`;
}

export const controllerRevisionPrinter: Printer = {
  columns: [NAME_COLUMN, col('Controller', 'string', 'Controller of the object'), col('Revision', 'string', 'Revision of the ControllerRevision'), AGE_COLUMN],
  cells(cr, now) {
    return [cr.metadata?.name, controllerName(cr), n(cr.revision), since(cr.metadata?.creationTimestamp, now)];
  },
};
