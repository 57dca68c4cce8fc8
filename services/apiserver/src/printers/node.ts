// Node rows: STATUS from the Ready condition (plus SchedulingDisabled),
// ROLES from node-role labels (upstream: printNode, findNodeRoles).

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

export function nodeStatus(node: Obj): string {
  const ready = (node.status?.conditions as Obj[] | undefined)?.find((c) => c.type === 'Ready');
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

export function nodeRoles(node: Obj): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries((node.metadata?.labels ?? {}) as Record<string, string>)) {
    if (k.startsWith(ROLE_PREFIX) && k.length > ROLE_PREFIX.length) roles.add(k.slice(ROLE_PREFIX.length));
    else if (k === LEGACY_ROLE_LABEL && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function address(node: Obj, type: string): string {
  return (node.status?.addresses as Obj[] | undefined)?.find((a) => a.type === type)?.address ?? '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'The node Ready condition, and whether scheduling is disabled.'),
    col('Roles', 'string', 'Roles from the node-role.kubernetes.io/<role> labels.'),
    AGE_COLUMN,
    col('Version', 'string', 'The kubelet version the node reports.'),
    col('Internal-IP', 'string', 'The first InternalIP address of the node.', 1),
    col('External-IP', 'string', 'The first ExternalIP address of the node.', 1),
    col('OS-Image', 'string', 'The OS image the node reports.', 1),
    col('Kernel-Version', 'string', 'The kernel version the node reports.', 1),
    col('Container-Runtime', 'string', 'The container runtime and version the node reports.', 1),
  ],
  cells(node, now) {
    const info: Obj = node.status?.nodeInfo ?? {};
    return [
      node.metadata?.name,
      nodeStatus(node),
      nodeRoles(node),
      since(node.metadata?.creationTimestamp, now),
      info.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>',
    ];
  },
};
