// NodeName (Filter): a pod that names its node in spec.nodeName fits only there.

import type { Pod } from '@kubelab/api';
import { Events } from '../../framework/events.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { ClusterEventWithHint, EnqueueExtensions, FilterPlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

export class NodeName implements FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodeName;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.NodeAdd }];
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const want = pod.spec?.nodeName;
    if (!want || want === nodeInfo.name) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, ERR_REASON_NODE_NAME);
  }
}

export const newNodeName = (): NodeName => new NodeName();
