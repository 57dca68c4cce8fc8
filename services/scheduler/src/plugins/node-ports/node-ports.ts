// NodePorts (Filter): a pod asking for host ports fits only where none of
// them is taken (0.0.0.0 conflicts with every address).

import type { Pod } from '@kubelab/api';
import type { CycleState } from '../../framework/cycle-state.js';
import { Events } from '../../framework/events.js';
import type { ClusterEventWithHint, EnqueueExtensions, FilterPlugin, PreFilterPlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import { podHostPorts, type HostPort, type NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';

export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";

const PRE_FILTER_KEY = `PreFilter${Names.NodePorts}`;

export function fitsPorts(want: readonly HostPort[], nodeInfo: NodeInfo): boolean {
  for (const p of want) if (nodeInfo.usedPorts.checkConflict(p)) return false;
  return true;
}

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodePorts;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.AssignedPodDelete }, { event: Events.NodeAdd }];
  }

  preFilter(state: CycleState, pod: Pod): { status?: Status } | undefined {
    const ports = podHostPorts(pod);
    if (ports.length === 0) return { status: newStatus(Code.Skip) };
    state.write(PRE_FILTER_KEY, ports);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const want = state.read<HostPort[]>(PRE_FILTER_KEY) ?? podHostPorts(pod);
    if (fitsPorts(want, nodeInfo)) return undefined;
    return newStatus(Code.Unschedulable, ERR_REASON_PORTS);
  }
}

export const newNodePorts = (): NodePorts => new NodePorts();
