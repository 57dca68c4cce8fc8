// The shared part of NodeResourcesFit scoring and BalancedAllocation
// (noderesources/resource_allocation.go): per resource, what the node would
// have requested with this pod on it, against its allocatable.

import type { NodeInfo } from '../../framework/node-info.js';
import type { Resource } from '../../framework/resource.js';

export interface ResourceSpec {
  name: string;
  weight: number;
}

export const DEFAULT_SCORING_RESOURCES: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

function pick(r: Resource, name: string): number {
  switch (name) {
    case 'cpu':
      return r.milliCPU;
    case 'memory':
      return r.memory;
    case 'ephemeral-storage':
      return r.ephemeralStorage;
    default:
      return r.scalar?.get(name) ?? 0;
  }
}

/**
 * Fills `requested`/`allocatable` (one slot per resource) for this node with
 * the pod added; `useRequested` reads the node's real requests instead of the
 * non-zero ones (BalancedAllocation does, LeastAllocated does not).
 */
export function allocatableAndRequested(nodeInfo: NodeInfo, podRequest: Resource, resources: readonly ResourceSpec[], useRequested: boolean, requested: number[], allocatable: number[]): void {
  const nodeReq = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
  for (let i = 0; i < resources.length; i++) {
    const name = resources[i]!.name;
    const alloc = pick(nodeInfo.allocatable, name);
    allocatable[i] = alloc;
    requested[i] = alloc === 0 ? 0 : pick(nodeReq, name) + pick(podRequest, name);
  }
}

/** The weight-averaged per-resource score, floored; resources with nothing allocatable do not count. */
function weightedMean(requested: readonly number[], allocatable: readonly number[], resources: readonly ResourceSpec[], score: (req: number, cap: number) => number): number {
  let nodeScore = 0;
  let weightSum = 0;
  for (let i = 0; i < resources.length; i++) {
    const cap = allocatable[i]!;
    if (cap === 0) continue;
    const w = resources[i]!.weight;
    nodeScore += score(requested[i]!, cap) * w;
    weightSum += w;
  }
  return weightSum === 0 ? 0 : Math.floor(nodeScore / weightSum);
}

/** Weighted mean over resources of (free after placing the pod) / allocatable × 100. */
export function leastAllocatedScore(requested: readonly number[], allocatable: readonly number[], resources: readonly ResourceSpec[]): number {
  return weightedMean(requested, allocatable, resources, (req, cap) => (req > cap ? 0 : Math.floor(((cap - req) * 100) / cap)));
}

/** Weighted mean of requested / allocatable × 100 (bin packing). */
export function mostAllocatedScore(requested: readonly number[], allocatable: readonly number[], resources: readonly ResourceSpec[]): number {
  return weightedMean(requested, allocatable, resources, (req, cap) => Math.floor((Math.min(req, cap) * 100) / cap));
}

/** (1 − standard deviation of the requested fractions) × 100: nodes used evenly across resources score higher. */
export function balancedScore(requested: readonly number[], allocatable: readonly number[]): number {
  let count = 0;
  let total = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    const cap = allocatable[i]!;
    if (cap === 0) continue;
    const f = Math.min(requested[i]! / cap, 1);
    if (count === 0) first = f;
    else if (count === 1) second = f;
    total += f;
    count++;
  }
  let std = 0;
  if (count === 2) std = Math.abs((first - second) / 2);
  else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      const cap = allocatable[i]!;
      if (cap === 0) continue;
      const f = Math.min(requested[i]! / cap, 1);
      sum += (f - mean) * (f - mean);
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * 100);
}
