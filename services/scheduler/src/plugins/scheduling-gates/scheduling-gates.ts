// SchedulingGates (PreEnqueue): a pod with spec.schedulingGates stays out of
// the active queue until every gate is removed.

import type { Pod } from '@kubelab/api';
import { ActionType, event } from '../../framework/events.js';
import type { ClusterEventWithHint, EnqueueExtensions, PreEnqueuePlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';
import { Code, newStatus, type Status } from '../../framework/status.js';

export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = Names.SchedulingGates;

  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: event('UnscheduledPod', ActionType.UpdatePodSchedulingGatesEliminated, 'UnscheduledPodUpdate') }];
  }

  preEnqueue(pod: Pod): Status | undefined {
    const gates = pod.spec?.schedulingGates ?? [];
    if (gates.length === 0) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, `waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }
}

export const newSchedulingGates = (): SchedulingGates => new SchedulingGates();
