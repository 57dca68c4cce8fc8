// The k8s exporter's node condition texts (upstream pkg/util/convert.go and
// problemclient generatePatch): the monitors' conditions as NodeConditions,
// all stamped with the heartbeat time, in a status patch.

import { formatTime, type NodeCondition } from '@kubelab/api';
import type { Condition } from '../types.js';

export function toNodeCondition(c: Condition, heartbeat: number): NodeCondition {
  return {
    type: c.type,
    status: c.status,
    lastHeartbeatTime: formatTime(heartbeat),
    lastTransitionTime: formatTime(c.transition),
    reason: c.reason,
    message: c.message,
  };
}

/** `{"status":{"conditions":[…]}}`: merged by type into the node's conditions (strategic merge). */
export function conditionsPatch(conditions: readonly Condition[], heartbeat: number): { status: { conditions: NodeCondition[] } } {
  return { status: { conditions: conditions.map((c) => toNodeCondition(c, heartbeat)) } };
}

/** Whether two conditions differ (the condition manager's DeepEqual). */
export function sameCondition(a: Condition | undefined, b: Condition): boolean {
  return !!a && a.type === b.type && a.status === b.status && a.transition === b.transition && a.reason === b.reason && a.message === b.message;
}
