// The node lifecycle controller's decisions (pkg/controller/nodelifecycle)
// as pure functions: when a node's status counts as stale, the Unknown
// conditions it then gets, the taints its conditions call for, and a
// zone's disruption state.

import { createTwoWayMergePatch, formatTime, getNodeCondition, parseTime, type Node, type NodeCondition, type Taint } from '@kubelab/api';

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

/**
 * The strategic merge patch giving the node these taints (upstream controller.PatchNodeTaints): spec.taints
 * is atomic, so the whole list goes, with the resourceVersion the taints were computed from as a precondition
 * (a concurrent change is a 409 and the caller reads again). No taints sends null (omitempty upstream).
 */
export function taintsPatch(node: Node, taints: Taint[]): Record<string, unknown> {
  // The original without its resourceVersion, so the patch carries it.
  const { resourceVersion: _rv, ...meta } = node.metadata;
  const { taints: _old, ...spec } = node.spec ?? {};
  return createTwoWayMergePatch({ ...node, metadata: meta }, { ...node, spec: taints.length ? { ...spec, taints } : spec }, 'Node');
}

/** SwapNodeControllerTaint: add one NoExecute taint, remove another. Undefined when nothing changes. */
export function swapNoExecuteTaint(node: Node, add: string | undefined, remove: readonly string[], now: number): Taint[] | undefined {
  const cur = node.spec?.taints ?? [];
  const kept = cur.filter((t) => !(t.effect === 'NoExecute' && remove.includes(t.key)));
  const has = kept.some((t) => t.effect === 'NoExecute' && t.key === add);
  if (kept.length === cur.length && (add === undefined || has)) return undefined;
  return add && !has ? [...kept, { key: add, effect: 'NoExecute', timeAdded: formatTime(now) }] : kept;
}

/** A zone's state (Initial until its first pass). */
export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** Nodes with this label count in no zone's state (isNodeExcludedFromDisruptionChecks). */
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

export function excludedFromDisruption(node: Node): boolean {
  return node.metadata.labels?.[LABEL_EXCLUDE_DISRUPTION] !== undefined;
}

/**
 * ComputeZoneState over the zone's Ready statuses (undefined: no Ready
 * condition): no Ready node at all = full disruption; more than 2 not Ready
 * and at least --unhealthy-zone-threshold of the zone = partial.
 */
export function computeZoneState(readyStatuses: ReadonlyArray<string | undefined>, unhealthyZoneThreshold: number): { notReady: number; state: Exclude<ZoneState, 'Initial'> } {
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

export interface EvictionRates {
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
}

/**
 * setLimiterInZone: the zone's tainting rate in a state. Normal and full
 * disruption (HealthyQPSFunc): --node-eviction-rate; partial disruption
 * (ReducedQPSFunc): --secondary-node-eviction-rate when the zone has more
 * than --large-cluster-size-threshold nodes, else 0 (no tainting at all).
 */
export function zoneEvictionRate(state: ZoneState, zoneSize: number, c: EvictionRates): number {
  if (state === 'PartialDisruption') return zoneSize > c.largeClusterSizeThreshold ? c.secondaryNodeEvictionRate : 0;
  return c.nodeEvictionRate;
}

export interface DisruptionPlan {
  /** Master disruption mode entered (every zone fully disrupted) or left this pass. */
  mode?: 'enter' | 'exit';
  /** Zones first seen this pass (set to Initial). */
  newZones: string[];
  /** Zones whose state changed outside the mode switches, with the new state (logged). */
  changed: Array<{ zone: string; state: ZoneState }>;
  /** Tainting rates to set, per zone. */
  limiters: Map<string, number>;
  /** The zone states after this pass. */
  states: Map<string, ZoneState>;
}

/**
 * handleDisruption's decisions for one pass. `zones` holds the Ready status
 * of every node not excluded, per zone key; `prev` the states after the last
 * pass. When every zone is fully disrupted (and was not already), the
 * control plane is the likelier one cut off: master disruption mode stops
 * all tainting (rate 0 everywhere; the caller lifts the NoExecute taints).
 * Leaving it, every zone's rate is set for its state; otherwise only zones
 * whose state changed get a new rate.
 */
export function planDisruption(
  prev: ReadonlyMap<string, ZoneState>,
  zones: ReadonlyMap<string, ReadonlyArray<string | undefined>>,
  c: EvictionRates & { unhealthyZoneThreshold: number },
): DisruptionPlan {
  const states = new Map(prev);
  const next = new Map<string, ZoneState>();
  const newZones: string[] = [];
  let allAre = true;
  for (const [zone, statuses] of zones) {
    const s = computeZoneState(statuses, c.unhealthyZoneThreshold).state;
    if (s !== 'FullDisruption') allAre = false;
    next.set(zone, s);
    if (!states.has(zone)) {
      newZones.push(zone);
      states.set(zone, 'Initial');
    }
  }
  for (const zone of [...states.keys()]) if (!zones.has(zone)) states.delete(zone);
  const allWas = [...states.values()].every((s) => s === 'FullDisruption');
  const plan: DisruptionPlan = { newZones, changed: [], limiters: new Map(), states };
  if (allAre && allWas) return plan;
  const size = (zone: string) => zones.get(zone)?.length ?? 0;
  if (allAre) {
    plan.mode = 'enter';
    for (const zone of states.keys()) {
      plan.limiters.set(zone, 0);
      states.set(zone, 'FullDisruption');
    }
    return plan;
  }
  if (allWas) {
    plan.mode = 'exit';
    for (const zone of states.keys()) {
      const s = next.get(zone)!;
      plan.limiters.set(zone, zoneEvictionRate(s, size(zone), c));
      states.set(zone, s);
    }
    return plan;
  }
  for (const [zone, was] of states) {
    const s = next.get(zone)!;
    if (s === was) continue;
    plan.changed.push({ zone, state: s });
    plan.limiters.set(zone, zoneEvictionRate(s, size(zone), c));
    states.set(zone, s);
  }
  return plan;
}

/** utilnode.GetZoneKey: region and zone labels joined (":\x00:" as upstream), '' when neither is set. */
export function zoneKey(node: Node): string {
  const region = node.metadata.labels?.[REGION_LABEL] ?? '';
  const zone = node.metadata.labels?.[ZONE_LABEL] ?? '';
  if (!region && !zone) return '';
  return `${region}:\x00:${zone}`;
}
