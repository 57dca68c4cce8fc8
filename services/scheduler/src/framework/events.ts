// framework.ClusterEvent: what changed in the cluster, so the queue can move
// only the pods a change could help (upstream EnqueueExtensions).

import type { Node } from '@kubelab/api';

/** What kind of object changed; Pod matches AssignedPod and UnscheduledPod. */
export type EventResource = 'Pod' | 'AssignedPod' | 'UnscheduledPod' | 'Node' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | '*';

/** Action bits (framework.ActionType); specific updates are bits inside Update. */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodToleration: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  /** Any other update. */
  UpdateOther: 1 << 11,
} as const;

const UPDATE_BITS =
  ActionType.UpdateNodeAllocatable |
  ActionType.UpdateNodeLabel |
  ActionType.UpdateNodeTaint |
  ActionType.UpdateNodeCondition |
  ActionType.UpdateNodeAnnotation |
  ActionType.UpdatePodLabel |
  ActionType.UpdatePodScaleDown |
  ActionType.UpdatePodToleration |
  ActionType.UpdatePodSchedulingGatesEliminated |
  ActionType.UpdateOther;

export const Update = UPDATE_BITS;
export const All = ActionType.Add | ActionType.Delete | UPDATE_BITS;

export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** Upstream's label, e.g. `NodeAdd`, `AssignedPodDelete`, `NodeTaintChange` (metrics, logs). */
  label: string;
}

/** Whether `incoming` is the same as or more specific than the registered `registered` event. */
export function matchClusterEvent(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if (registered.resource === '*' && registered.actionType === All) return true;
  const resMatch =
    registered.resource === '*' || registered.resource === incoming.resource || (registered.resource === 'Pod' && (incoming.resource === 'AssignedPod' || incoming.resource === 'UnscheduledPod'));
  return resMatch && (registered.actionType & incoming.actionType) !== 0;
}

export function event(resource: EventResource, actionType: number, label: string): ClusterEvent {
  return { resource, actionType, label };
}

/** The events the scheduler's informers emit (labels as upstream metrics show them). */
export const Events = {
  NodeAdd: event('Node', ActionType.Add, 'NodeAdd'),
  NodeDelete: event('Node', ActionType.Delete, 'NodeDelete'),
  AssignedPodAdd: event('AssignedPod', ActionType.Add, 'AssignedPodAdd'),
  AssignedPodDelete: event('AssignedPod', ActionType.Delete, 'AssignedPodDelete'),
  /** Taints changed or the node was (un)cordoned (spec.unschedulable counts as a taint). */
  NodeTaintChange: event('Node', ActionType.UpdateNodeTaint, 'NodeTaintChange'),
  UnscheduledPodTolerationChange: event('UnscheduledPod', ActionType.UpdatePodToleration, 'UnscheduledPodUpdate'),
  UnschedulableTimeout: event('*', All, 'UnschedulableTimeout'),
  ForceActivate: event('*', All, 'ForceActivate'),
  PvcAdd: event('PersistentVolumeClaim', ActionType.Add, 'PvcAdd'),
  PvcUpdate: event('PersistentVolumeClaim', ActionType.UpdateOther, 'PvcUpdate'),
  PvAdd: event('PersistentVolume', ActionType.Add, 'PvAdd'),
  PvUpdate: event('PersistentVolume', ActionType.UpdateOther, 'PvUpdate'),
  StorageClassAdd: event('StorageClass', ActionType.Add, 'StorageClassAdd'),
} as const;

/** Classifies a node update into its specific action bits (upstream nodeSchedulingPropertiesChange). */
export function nodeUpdateActions(o: Node, n: Node): number {
  let bits = 0;
  if (!shallowJsonEqual(o.status?.allocatable, n.status?.allocatable)) bits |= ActionType.UpdateNodeAllocatable;
  if (!shallowJsonEqual(o.metadata.labels, n.metadata.labels)) bits |= ActionType.UpdateNodeLabel;
  if (!shallowJsonEqual(o.spec?.taints, n.spec?.taints) || !!o.spec?.unschedulable !== !!n.spec?.unschedulable) bits |= ActionType.UpdateNodeTaint;
  if (!shallowJsonEqual(conditionStatuses(o), conditionStatuses(n))) bits |= ActionType.UpdateNodeCondition;
  if (!shallowJsonEqual(o.metadata.annotations, n.metadata.annotations)) bits |= ActionType.UpdateNodeAnnotation;
  return bits;
}

function conditionStatuses(n: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of n.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

function shallowJsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A node update as a ClusterEvent; undefined when nothing the scheduler looks at changed. */
export function nodeUpdateEvent(bits: number): ClusterEvent | undefined {
  if (bits === 0) return undefined;
  const parts: string[] = [];
  if (bits & ActionType.UpdateNodeAllocatable) parts.push('NodeAllocatableChange');
  if (bits & ActionType.UpdateNodeLabel) parts.push('NodeLabelChange');
  if (bits & ActionType.UpdateNodeTaint) parts.push('NodeTaintChange');
  if (bits & ActionType.UpdateNodeCondition) parts.push('NodeConditionChange');
  if (bits & ActionType.UpdateNodeAnnotation) parts.push('NodeAnnotationChange');
  return event('Node', bits, parts.join('|'));
}
