// The node lifecycle controller's decisions (pkg/controller/nodelifecycle)
// as pure functions: when a node's status counts as stale, the Unknown
// conditions it then gets, the taints its conditions call for, and a
// zone's disruption state.

import { formatTime, getNodeCondition, parseTime, type Node, type NodeCondition, type Taint } from '@kubelab/api';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const REGION_LABEL = 'topology.kubernetes.io/region';

/** The conditions a stale node's are set to Unknown for. */
export const MONITORED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

/** What the controller remembers per node (nodeHealthData); times are this controller's clock. */
export interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** The Ready condition's lastHeartbeatTime last seen. */
  heartbeat: string | undefined;
  readyStatus: string | undefined;
  /** The node Lease's renewTime last seen. */
  leaseRenewTime: number | undefined;
}

export interface HealthInput {
  node: Node;
  prev: NodeHealth | undefined;
  leaseRenewTime: number | undefined;
  now: number;
  monitorGraceMs: number;
  startupGraceMs: number;
}

export interface HealthResult {
  health: NodeHealth;
  /** The Ready condition as the kubelet last posted it (observedReadyCondition). */
  observedReady: NodeCondition;
  /** The Ready condition after this pass (currentReadyCondition). */
  currentReady: NodeCondition | undefined;
  /** Conditions to write when the node has gone stale, else undefined. */
  conditions: NodeCondition[] | undefined;
}

/**
 * tryUpdateNodeHealth: a node whose Ready heartbeat and Lease have not moved
 * (as seen by this controller) for the grace period gets its monitored
 * conditions set to Unknown. The grace period is the startup one until the
 * kubelet has posted a Ready condition at all.
 */
export function nodeHealth(i: HealthInput): HealthResult {
  const { node, now } = i;
  const ready = getNodeCondition(node.status, 'Ready').condition;
  const created = parseTime(node.metadata.creationTimestamp);
  const observedReady: NodeCondition = ready
    ? { ...ready }
    : { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.metadata.creationTimestamp ?? null, lastTransitionTime: node.metadata.creationTimestamp ?? null };
  const grace = ready ? i.monitorGraceMs : i.startupGraceMs;
  let h: NodeHealth;
  if (!i.prev) {
    h = {
      probeTimestamp: now,
      readyTransitionTimestamp: now,
      heartbeat: ready?.lastHeartbeatTime ?? undefined,
      readyStatus: ready?.status,
      leaseRenewTime: undefined,
    };
    if (!ready && !Number.isNaN(created)) h.probeTimestamp = h.readyTransitionTimestamp = Math.min(now, created);
  } else {
    h = { ...i.prev };
    if ((ready?.lastHeartbeatTime ?? undefined) !== i.prev.heartbeat) {
      h.probeTimestamp = now;
      h.heartbeat = ready?.lastHeartbeatTime ?? undefined;
    }
    if (ready?.status !== i.prev.readyStatus) {
      h.readyTransitionTimestamp = now;
      h.readyStatus = ready?.status;
    }
  }
  if (i.leaseRenewTime !== undefined && (h.leaseRenewTime === undefined || h.leaseRenewTime < i.leaseRenewTime)) {
    h.leaseRenewTime = i.leaseRenewTime;
    h.probeTimestamp = now;
  }
  if (now <= h.probeTimestamp + grace) return { health: h, observedReady, currentReady: ready, conditions: undefined };

  const conditions = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  const ts = formatTime(now);
  for (const type of MONITORED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: node.metadata.creationTimestamp ?? null,
        lastTransitionTime: ts,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = ts;
    }
  }
  const currentReady = conditions.find((c) => c.type === 'Ready');
  const changed = JSON.stringify(currentReady) !== JSON.stringify(ready);
  if (changed) h.readyTransitionTimestamp = now;
  return { health: h, observedReady, currentReady, conditions: changed ? conditions : undefined };
}

/** The NoExecute taint a Ready status calls for (processTaintBaseEviction). */
export function noExecuteTaintFor(readyStatus: string | undefined): { add: string; remove: string } | undefined {
  if (readyStatus === 'False') return { add: TAINT_NOT_READY, remove: TAINT_UNREACHABLE };
  if (readyStatus === 'Unknown') return { add: TAINT_UNREACHABLE, remove: TAINT_NOT_READY };
  return undefined;
}

const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
};
const MANAGED_NO_SCHEDULE = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), TAINT_UNSCHEDULABLE]);

/**
 * doNoScheduleTaintingPass: the node's NoSchedule taints follow its
 * conditions and spec.unschedulable. Returns the full new taint list, or
 * undefined when nothing changes.
 */
export function noScheduleTaints(node: Node, now: number): Taint[] | undefined {
  const want = new Set<string>();
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) want.add(key);
  }
  if (node.spec?.unschedulable) want.add(TAINT_UNSCHEDULABLE);
  const cur = node.spec?.taints ?? [];
  const keep = cur.filter((t) => t.effect !== 'NoSchedule' || !MANAGED_NO_SCHEDULE.has(t.key) || want.has(t.key));
  const have = new Set(cur.filter((t) => t.effect === 'NoSchedule').map((t) => t.key));
  const add = [...want]
    .filter((k) => !have.has(k))
    .sort()
    .map((key): Taint => ({ key, effect: 'NoSchedule', timeAdded: formatTime(now) }));
  if (add.length === 0 && keep.length === cur.length) return undefined;
  return [...keep, ...add];
}

/** A copy of the node with these taints; none leaves spec.taints out (omitempty upstream), not []. */
export function withTaints(node: Node, taints: Taint[]): Node {
  const copy = structuredClone(node);
  const { taints: _old, ...spec } = copy.spec ?? {};
  copy.spec = taints.length ? { ...spec, taints } : spec;
  return copy;
}

/** SwapNodeControllerTaint: add one NoExecute taint, remove another. Undefined when nothing changes. */
export function swapNoExecuteTaint(node: Node, add: string | undefined, remove: readonly string[], now: number): Taint[] | undefined {
  const cur = node.spec?.taints ?? [];
  const kept = cur.filter((t) => !(t.effect === 'NoExecute' && remove.includes(t.key)));
  const has = kept.some((t) => t.effect === 'NoExecute' && t.key === add);
  if (kept.length === cur.length && (add === undefined || has)) return undefined;
  return add && !has ? [...kept, { key: add, effect: 'NoExecute', timeAdded: formatTime(now) }] : kept;
}

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** ComputeZoneState: no ready node = full; at least 3 and the threshold share not ready = partial. */
export function computeZoneState(readyStatuses: ReadonlyArray<string | undefined>, unhealthyZoneThreshold: number): { notReady: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const s of readyStatuses) {
    if (s === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

/** The eviction (tainting) rate for a zone in a state (setLimiterInZone). */
export function zoneEvictionRate(state: ZoneState, zoneSize: number, c: { nodeEvictionRate: number; secondaryNodeEvictionRate: number; largeClusterSizeThreshold: number }): number {
  if (state === 'PartialDisruption') return zoneSize <= c.largeClusterSizeThreshold ? 0 : c.secondaryNodeEvictionRate;
  return c.nodeEvictionRate;
}

/** utilnode.GetZoneKey: region and zone labels joined (":\x00:" as upstream), '' when neither is set. */
export function zoneKey(node: Node): string {
  const region = node.metadata.labels?.[REGION_LABEL] ?? '';
  const zone = node.metadata.labels?.[ZONE_LABEL] ?? '';
  if (!region && !zone) return '';
  return `${region}:\x00:${zone}`;
}
