// metrics-server's storage (upstream pkg/storage: nodeStorage and
// podStorage): the last two points of every node and container; usage is
// the CPU rate between them (core-nanoseconds per second) and the last
// memory working set, over the window between their timestamps. A node or
// container seen once has no usage yet; one that restarted (its CPU counter
// went down or its start time moved) starts over. Only what the last scrape
// returned is kept, so nothing outlives its node or pod.

import type { MetricsPoint, NodeBatch, PodRef } from '../scrape/decode.js';

export interface Usage {
  /** Nanocores. */
  cpu: number;
  /** Bytes. */
  memory: number;
  /** The last point's time, ms since the epoch. */
  timestamp: number;
  /** The time between the two points, ms. */
  windowMs: number;
}

interface Pair {
  prev?: MetricsPoint;
  last: MetricsPoint;
}

/** The usage between two points (upstream resourceUsage); undefined when there is no earlier point of the same run. */
export function usageBetween(p: Pair): Usage | undefined {
  const { prev, last } = p;
  if (!prev || last.timestamp <= prev.timestamp || last.cumulativeCpuUsed < prev.cumulativeCpuUsed) return undefined;
  const windowMs = last.timestamp - prev.timestamp;
  return { cpu: Math.round(((last.cumulativeCpuUsed - prev.cumulativeCpuUsed) * 1000) / windowMs), memory: last.memoryUsage, timestamp: last.timestamp, windowMs };
}

/** The pair after a new point: the old last becomes prev unless the point is a new run or no newer. */
function advance(old: Pair | undefined, point: MetricsPoint): Pair {
  if (!old) return { last: point };
  if (point.timestamp <= old.last.timestamp) return old;
  const restarted = point.cumulativeCpuUsed < old.last.cumulativeCpuUsed || (point.startTime !== 0 && old.last.startTime !== 0 && point.startTime !== old.last.startTime);
  return restarted ? { last: point } : { prev: old.last, last: point };
}

export interface PodUsage {
  ref: PodRef;
  containers: { name: string; usage: Usage }[];
}

export class MetricsStorage {
  private nodes = new Map<string, Pair>();
  /** By `namespace/name`, then container. */
  private pods = new Map<string, { ref: PodRef; containers: Map<string, Pair> }>();

  /** Takes one round of scrapes, by node name (upstream Storage.Store). */
  store(batches: ReadonlyMap<string, NodeBatch>): void {
    const nodes = new Map<string, Pair>();
    const pods = new Map<string, { ref: PodRef; containers: Map<string, Pair> }>();
    for (const [name, batch] of batches) {
      if (batch.node) nodes.set(name, advance(this.nodes.get(name), batch.node));
      for (const [key, pod] of batch.pods) {
        const old = this.pods.get(key);
        const containers = new Map<string, Pair>();
        for (const [c, point] of pod.containers) containers.set(c, advance(old?.containers.get(c), point));
        pods.set(key, { ref: pod.ref, containers });
      }
    }
    this.nodes = nodes;
    this.pods = pods;
  }

  nodeUsage(name: string): Usage | undefined {
    const p = this.nodes.get(name);
    return p && usageBetween(p);
  }

  /** A pod's usage once every container of it has one (upstream: a pod is reported whole or not at all). */
  podUsage(namespace: string, name: string): PodUsage | undefined {
    const pod = this.pods.get(`${namespace}/${name}`);
    if (!pod || pod.containers.size === 0) return undefined;
    const containers: PodUsage['containers'] = [];
    for (const [c, pair] of pod.containers) {
      const usage = usageBetween(pair);
      if (!usage) return undefined;
      containers.push({ name: c, usage });
    }
    return { ref: pod.ref, containers };
  }

  /** Whether any node has usage (the storage's readiness, upstream Storage.Ready). */
  ready(): boolean {
    return [...this.nodes.values()].some((p) => usageBetween(p) !== undefined);
  }
}
