// NodeUnschedulable (Filter): a cordoned node (spec.unschedulable) takes only
// pods tolerating the node.kubernetes.io/unschedulable:NoSchedule taint.

import { tolerationsTolerateTaint, type Pod, type Taint } from '@kubelab/api';
import { Events } from '../../framework/events.js';
import type { ClusterEventWithHint, EnqueueExtensions, FilterPlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Code, newStatus, type Status } from '../../framework/status.js';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const ERR_REASON_UNKNOWN_CONDITION = 'node(s) had unknown conditions';

/** The taint a cordoned node behaves as if it had (v1.TaintNodeUnschedulable). */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  readonly name = Names.NodeUnschedulable;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: Events.NodeAdd }, { event: Events.NodeTaintChange }, { event: Events.UnscheduledPodTolerationChange }];
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (!node) return newStatus(Code.UnschedulableAndUnresolvable, ERR_REASON_UNKNOWN_CONDITION);
    if (!node.spec?.unschedulable) return undefined;
    if (tolerationsTolerateTaint(pod.spec?.tolerations, UNSCHEDULABLE_TAINT)) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, ERR_REASON_UNSCHEDULABLE);
  }
}

export const newNodeUnschedulable = (): NodeUnschedulable => new NodeUnschedulable();
