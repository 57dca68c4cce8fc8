// NodeResourcesFit: Filter checks the pod's requests against the node's
// allocatable minus what its pods (bound and assumed) already request, and
// the pod count; every shortfall is a reason ("Insufficient cpu", "Too many
// pods"). Score (LeastAllocated by default) prefers emptier nodes.

import type { Pod } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, event, Events } from '../../framework/events.js';
import type { ClusterEventWithHint, EnqueueExtensions, FilterPlugin, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { podRequests, type Resource } from '../../framework/resource.js';
import { Code, Status } from '../../framework/status.js';
import { allocatableAndRequested, DEFAULT_SCORING_RESOURCES, leastAllocatedScore, mostAllocatedScore, type ResourceSpec } from '../helper/resource-allocation.js';

const PRE_FILTER_KEY = `PreFilter${Names.NodeResourcesFit}`;
const PRE_SCORE_KEY = `PreScore${Names.NodeResourcesFit}`;

export interface NodeResourcesFitArgs {
  scoringStrategy?: { type?: 'LeastAllocated' | 'MostAllocated'; resources?: ResourceSpec[] };
}

export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's whole allocatable: preemption cannot help. */
  unresolvable: boolean;
}

const NONE: InsufficientResource[] = [];

/** Every resource the node lacks for this request (upstream fitsRequest). */
export function fitsRequest(req: Resource, nodeInfo: NodeInfo): InsufficientResource[] {
  // Fast path for the common case (no allocation): everything fits.
  const a = nodeInfo.allocatable;
  const u = nodeInfo.requested;
  if (
    nodeInfo.pods.length + 1 <= nodeInfo.allowedPodNumber &&
    (req.milliCPU === 0 || req.milliCPU <= a.milliCPU - u.milliCPU) &&
    (req.memory === 0 || req.memory <= a.memory - u.memory) &&
    (req.ephemeralStorage === 0 || req.ephemeralStorage <= a.ephemeralStorage - u.ephemeralStorage) &&
    (!req.scalar || req.scalar.size === 0)
  ) {
    return NONE;
  }
  return insufficientResources(req, nodeInfo);
}

function insufficientResources(req: Resource, nodeInfo: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const podCount = nodeInfo.pods.length;
  if (podCount + 1 > nodeInfo.allowedPodNumber) {
    out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: podCount, capacity: nodeInfo.allowedPodNumber, unresolvable: false });
  }
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && (!req.scalar || req.scalar.size === 0)) return out;
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const check = (name: string, want: number, have: number, inUse: number) => {
    if (want > 0 && want > have - inUse) {
      out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: want, used: inUse, capacity: have, unresolvable: want > have });
    }
  };
  check('cpu', req.milliCPU, alloc.milliCPU, used.milliCPU);
  check('memory', req.memory, alloc.memory, used.memory);
  check('ephemeral-storage', req.ephemeralStorage, alloc.ephemeralStorage, used.ephemeralStorage);
  if (req.scalar) {
    for (const name of [...req.scalar.keys()].sort()) {
      const want = req.scalar.get(name)!;
      if (want === 0) continue;
      check(name, want, alloc.scalar?.get(name) ?? 0, used.scalar?.get(name) ?? 0);
    }
  }
  return out;
}

export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.NodeResourcesFit;
  private readonly resources: ResourceSpec[];
  private readonly scorer: typeof leastAllocatedScore;
  private readonly req: number[];
  private readonly alloc: number[];

  constructor(args: NodeResourcesFitArgs = {}) {
    this.resources = args.scoringStrategy?.resources ?? DEFAULT_SCORING_RESOURCES;
    this.scorer = args.scoringStrategy?.type === 'MostAllocated' ? mostAllocatedScore : leastAllocatedScore;
    this.req = new Array<number>(this.resources.length).fill(0);
    this.alloc = new Array<number>(this.resources.length).fill(0);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: Events.AssignedPodDelete },
      { event: event('UnscheduledPod', ActionType.UpdatePodScaleDown, 'UnscheduledPodUpdate') },
      { event: Events.NodeAdd },
      { event: event('Node', ActionType.UpdateNodeAllocatable, 'NodeAllocatableChange') },
    ];
  }

  preFilter(state: CycleState, pod: Pod): undefined {
    state.write(PRE_FILTER_KEY, podRequests(pod, false));
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const req = state.read<Resource>(PRE_FILTER_KEY) ?? podRequests(pod, false);
    const insufficient = fitsRequest(req, nodeInfo);
    if (insufficient.length === 0) return undefined;
    const code = insufficient.some((r) => r.unresolvable) ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
    return new Status(
      code,
      insufficient.map((r) => r.reason),
    );
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    state.write(PRE_SCORE_KEY, podRequests(pod, true));
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const req = state.read<Resource>(PRE_SCORE_KEY) ?? podRequests(pod, true);
    allocatableAndRequested(nodeInfo, req, this.resources, false, this.req, this.alloc);
    return this.scorer(this.req, this.alloc, this.resources);
  }
}

export const newNodeResourcesFit = (args: unknown): NodeResourcesFit => new NodeResourcesFit((args ?? {}) as NodeResourcesFitArgs);
