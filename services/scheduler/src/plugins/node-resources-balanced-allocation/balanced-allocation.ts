// NodeResourcesBalancedAllocation (Score): prefers nodes whose cpu and
// memory would be used in similar proportions once the pod is placed.

import type { Pod } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, event, Events } from '../../framework/events.js';
import type { ClusterEventWithHint, EnqueueExtensions, PreScorePlugin, ScorePlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { podRequests, type Resource } from '../../framework/resource.js';
import { Code, newStatus, type Status } from '../../framework/status.js';
import { allocatableAndRequested, balancedScore, DEFAULT_SCORING_RESOURCES, type ResourceSpec } from '../helper/resource-allocation.js';

const PRE_SCORE_KEY = `PreScore${Names.NodeResourcesBalancedAllocation}`;

export interface BalancedAllocationArgs {
  resources?: ResourceSpec[];
}

export class BalancedAllocation implements PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = Names.NodeResourcesBalancedAllocation;
  private readonly resources: ResourceSpec[];
  private readonly req: number[];
  private readonly alloc: number[];

  constructor(args: BalancedAllocationArgs = {}) {
    this.resources = args.resources ?? DEFAULT_SCORING_RESOURCES;
    this.req = new Array<number>(this.resources.length).fill(0);
    this.alloc = new Array<number>(this.resources.length).fill(0);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.AssignedPodDelete }, { event: Events.NodeAdd }, { event: event('Node', ActionType.UpdateNodeAllocatable, 'NodeAllocatableChange') }];
  }

  /** A pod requesting nothing (BestEffort) is not scored by this plugin. */
  preScore(state: CycleState, pod: Pod): Status | undefined {
    const req = podRequests(pod, false);
    if (req.milliCPU === 0 && req.memory === 0 && (!req.scalar || req.scalar.size === 0)) return newStatus(Code.Skip);
    state.write(PRE_SCORE_KEY, req);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const req = state.read<Resource>(PRE_SCORE_KEY) ?? podRequests(pod, false);
    allocatableAndRequested(nodeInfo, req, this.resources, true, this.req, this.alloc);
    return balancedScore(this.req, this.alloc);
  }
}

export const newBalancedAllocation = (args: unknown): BalancedAllocation => new BalancedAllocation((args ?? {}) as BalancedAllocationArgs);
