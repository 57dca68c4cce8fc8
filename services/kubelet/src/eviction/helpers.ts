// The eviction manager's decisions as pure functions (upstream
// pkg/kubelet/eviction/helpers.go): node stats → signal observations →
// thresholds met (with min-reclaim, grace periods) → node conditions (held
// for the pressure transition period); pods → eviction ranking; and the
// message an evicted pod carries.

import { Quantity, parseQuantity, type Pod } from '@kubelab/api';
import { SIGNAL_TO_NODE_CONDITION, SIGNAL_TO_RESOURCE, thresholdKey, thresholdQuantity, thresholdQuantityText, type Signal, type Threshold } from './thresholds.js';

export type NodeConditionType = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

/** What the node and its pods use (upstream's stats summary, reduced to what eviction reads). */
export interface Summary {
  memory?: { capacityBytes: number; workingSetBytes: number };
  /** kubelab keeps images and containers on the node filesystem (upstream's single-filesystem case). */
  nodeFs?: { capacityBytes: number; availableBytes: number; inodes?: number; inodesFree?: number };
  imageFs?: { capacityBytes: number; availableBytes: number; inodes?: number; inodesFree?: number };
  pid?: { max: number; running: number };
  pods: PodStats[];
}

export interface ContainerStats {
  name: string;
  workingSetBytes: number;
  rootfsUsedBytes: number;
  inodesUsed: number;
}

export interface PodStats {
  uid: string;
  containers: ContainerStats[];
  processes: number;
}

export interface Observation {
  available: number;
  capacity: number;
}

export type Observations = Partial<Record<Signal, Observation>>;

/** Signals from a summary (upstream makeSignalObservations). */
export function makeSignalObservations(s: Summary): Observations {
  const o: Observations = {};
  if (s.memory) o['memory.available'] = { available: Math.max(0, s.memory.capacityBytes - s.memory.workingSetBytes), capacity: s.memory.capacityBytes };
  const fs = (prefix: 'nodefs' | 'imagefs' | 'containerfs', f: Summary['nodeFs']) => {
    if (!f) return;
    o[`${prefix}.available`] = { available: Math.max(0, f.availableBytes), capacity: f.capacityBytes };
    if (f.inodes && f.inodesFree !== undefined) o[`${prefix}.inodesFree`] = { available: f.inodesFree, capacity: f.inodes };
  };
  fs('nodefs', s.nodeFs);
  fs('imagefs', s.imageFs);
  // One filesystem: containerfs is nodefs (upstream UpdateContainerFsThresholds).
  fs('containerfs', s.nodeFs);
  if (s.pid) o['pid.available'] = { available: s.pid.max - s.pid.running, capacity: s.pid.max };
  return o;
}

/** Thresholds met regardless of grace period; with enforceMinReclaim, relative to value + min-reclaim (upstream thresholdsMet). */
export function thresholdsMet(thresholds: Threshold[], obs: Observations, enforceMinReclaim: boolean): Threshold[] {
  return thresholds.filter((t) => {
    const o = obs[t.signal];
    if (!o) return false;
    let q = thresholdQuantity(t.value, o.capacity);
    if (enforceMinReclaim && t.minReclaim) q += thresholdQuantity(t.minReclaim, o.capacity);
    return q > o.available;
  });
}

/** Both lists, without duplicates (upstream mergeThresholds). */
export function mergeThresholds(a: Threshold[], b: Threshold[]): Threshold[] {
  const out = [...a];
  for (const t of b) if (!out.some((x) => thresholdKey(x) === thresholdKey(t))) out.push(t);
  return out;
}

export type ObservedAt = Map<string, { threshold: Threshold; at: number }>;

/** When each met threshold was first seen (upstream thresholdsFirstObservedAt). */
export function thresholdsFirstObservedAt(thresholds: Threshold[], last: ObservedAt, now: number): ObservedAt {
  const out: ObservedAt = new Map();
  for (const t of thresholds) out.set(thresholdKey(t), { threshold: t, at: last.get(thresholdKey(t))?.at ?? now });
  return out;
}

/** Thresholds met for at least their grace period (upstream thresholdsMetGracePeriod). */
export function thresholdsMetGracePeriod(observedAt: ObservedAt, now: number): Threshold[] {
  return [...observedAt.values()].filter(({ threshold, at }) => now - at >= threshold.gracePeriodMs).map((e) => e.threshold);
}

/** The node conditions the thresholds call for (upstream nodeConditions). */
export function nodeConditions(thresholds: Threshold[]): NodeConditionType[] {
  const out: NodeConditionType[] = [];
  for (const t of thresholds) {
    const c = SIGNAL_TO_NODE_CONDITION[t.signal];
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** Conditions seen now get `now`; the rest keep their last time (upstream nodeConditionsLastObservedAt). */
export function nodeConditionsLastObservedAt(conds: NodeConditionType[], last: Map<NodeConditionType, number>, now: number): Map<NodeConditionType, number> {
  const out = new Map<NodeConditionType, number>(conds.map((c) => [c, now]));
  for (const [c, at] of last) if (!out.has(c)) out.set(c, at);
  return out;
}

/** Conditions seen within the transition period (upstream nodeConditionsObservedSince). */
export function nodeConditionsObservedSince(observedAt: Map<NodeConditionType, number>, periodMs: number, now: number): NodeConditionType[] {
  return [...observedAt].filter(([, at]) => now - at < periodMs).map(([c]) => c);
}

/** Memory first, thresholds without a resource last (upstream byEvictionPriority), then the first that can be reclaimed. */
export function thresholdToReclaim(thresholds: Threshold[]): { threshold: Threshold; resource: string } | undefined {
  const isMemory = (t: Threshold) => t.signal === 'memory.available' || t.signal === 'allocatableMemory.available';
  const sorted = [...thresholds].sort((a, b) => Number(isMemory(b)) - Number(isMemory(a)));
  const t = sorted.find((x) => SIGNAL_TO_RESOURCE[x.signal]);
  return t ? { threshold: t, resource: SIGNAL_TO_RESOURCE[t.signal] } : undefined;
}

// ------------------------------------------------------------------ ranking

const qty = (v: string | undefined): number => (v === undefined ? 0 : (parseQuantity(v).value() ?? 0));

/** A pod's request of a resource: containers summed, init containers' max, overhead (upstream GetResourceRequestQuantity). */
export function podRequest(pod: Pod, resource: string): number {
  const sum = (pod.spec?.containers ?? []).reduce((n, c) => n + qty(c.resources?.requests?.[resource]), 0);
  const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map((c) => qty(c.resources?.requests?.[resource])));
  return Math.max(sum, init) + qty(pod.spec?.overhead?.[resource]);
}

export const podPriority = (p: Pod): number => p.spec?.priority ?? 0;

export type StatsFunc = (pod: Pod) => PodStats | undefined;

const memoryUsage = (s: PodStats) => s.containers.reduce((n, c) => n + c.workingSetBytes, 0);
const diskUsage = (s: PodStats, resource: string) => s.containers.reduce((n, c) => n + (resource === 'inodes' ? c.inodesUsed : c.rootfsUsedBytes), 0);

type Cmp = (a: Pod, b: Pod) => number;

/** true before false (upstream cmpBool). */
const cmpBool = (a: boolean, b: boolean) => (a === b ? 0 : a ? -1 : 1);

/** Pods without stats first, then by `f`. */
function withStats(stats: StatsFunc, f: (a: Pod, sa: PodStats, b: Pod, sb: PodStats) => number): Cmp {
  return (a, b) => {
    const sa = stats(a);
    const sb = stats(b);
    if (!sa || !sb) return cmpBool(!sa, !sb);
    return f(a, sa, b, sb);
  };
}

const byPriority: Cmp = (a, b) => Math.sign(podPriority(a) - podPriority(b));

function orderedBy(...cmps: Cmp[]): (pods: Pod[]) => Pod[] {
  return (pods) =>
    [...pods].sort((a, b) => {
      for (const c of cmps) {
        const r = c(a, b);
        if (r) return r;
      }
      return 0;
    });
}

/** Memory pressure: usage above requests first, then lower priority, then most usage above requests (upstream rankMemoryPressure). */
export function rankMemoryPressure(pods: Pod[], stats: StatsFunc): Pod[] {
  const exceeds = withStats(stats, (a, sa, b, sb) => cmpBool(memoryUsage(sa) > podRequest(a, 'memory'), memoryUsage(sb) > podRequest(b, 'memory')));
  const usage = withStats(stats, (a, sa, b, sb) => Math.sign(memoryUsage(sb) - podRequest(b, 'memory') - (memoryUsage(sa) - podRequest(a, 'memory'))));
  return orderedBy(exceeds, byPriority, usage)(pods);
}

/** Disk pressure: the same order over ephemeral-storage (or inodes) usage (upstream rankDiskPressureFunc). */
export function rankDiskPressure(pods: Pod[], stats: StatsFunc, resource: 'ephemeral-storage' | 'inodes'): Pod[] {
  const exceeds = withStats(stats, (a, sa, b, sb) => cmpBool(diskUsage(sa, resource) > podRequest(a, resource), diskUsage(sb, resource) > podRequest(b, resource)));
  const usage = withStats(stats, (a, sa, b, sb) => Math.sign(diskUsage(sb, resource) - podRequest(b, 'ephemeral-storage') - (diskUsage(sa, resource) - podRequest(a, 'ephemeral-storage'))));
  return orderedBy(exceeds, byPriority, usage)(pods);
}

/** PID pressure: lower priority, then most processes (upstream rankPIDPressure). */
export function rankPIDPressure(pods: Pod[], stats: StatsFunc): Pod[] {
  return orderedBy(
    byPriority,
    withStats(stats, (_a, sa, _b, sb) => sb.processes - sa.processes),
  )(pods);
}

/** The ranking for a signal. */
export function rankFor(signal: Signal, pods: Pod[], stats: StatsFunc): Pod[] {
  const resource = SIGNAL_TO_RESOURCE[signal];
  if (resource === 'memory') return rankMemoryPressure(pods, stats);
  if (resource === 'pids') return rankPIDPressure(pods, stats);
  return rankDiskPressure(pods, stats, resource === 'inodes' ? 'inodes' : 'ephemeral-storage');
}

// ------------------------------------------------------------------ messages

export const EVICTED_REASON = 'Evicted';

const binary = (n: number) => Quantity.fromValue(n, 'BinarySI').toString();
const decimal = (n: number) => Quantity.fromValue(n, 'DecimalSI').toString();

/**
 * "The node was low on resource: memory. Threshold quantity: 100Mi,
 * available: 42Mi. Container app was using 180Mi, request is 0, has larger
 * consumption of memory. " (upstream evictionMessage).
 */
export function evictionMessage(resource: string, pod: Pod, stats: StatsFunc, thresholds: Threshold[], obs: Observations): string {
  let message = `The node was low on resource: ${resource}. `;
  for (const t of thresholds) {
    if (SIGNAL_TO_RESOURCE[t.signal] !== resource) continue;
    const o = obs[t.signal];
    if (!o) continue;
    const available = resource === 'inodes' || resource === 'pids' ? decimal(o.available) : binary(o.available);
    message += `Threshold quantity: ${thresholdQuantityText(t.value, o.capacity)}, available: ${available}. `;
    break;
  }
  const ps = stats(pod);
  if (!ps) return message;
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const cs of ps.containers) {
    const c = containers.find((x) => x.name === cs.name);
    if (!c) continue;
    let usage: number | undefined;
    if (resource === 'memory') usage = cs.workingSetBytes;
    else if (resource === 'ephemeral-storage') usage = cs.rootfsUsedBytes;
    if (usage === undefined) continue;
    const reqText = c.resources?.requests?.[resource];
    const req = reqText === undefined ? Quantity.zero('BinarySI') : parseQuantity(reqText);
    if (usage > req.value()) message += `Container ${c.name} was using ${binary(usage)}, request is ${req.toString()}, has larger consumption of ${resource}. `;
  }
  return message;
}

/** Never evicted: static and mirror pods, and pods at system-critical priority (upstream IsCriticalPod). */
export function isCriticalPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  if (source && source !== 'api') return true;
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) return true;
  return podPriority(pod) >= 2_000_000_000;
}
