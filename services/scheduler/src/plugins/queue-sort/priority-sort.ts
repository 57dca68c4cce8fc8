// PrioritySort (queuesort plugin): higher spec.priority first, then the pod
// that has waited longer.

import type { Pod } from '@kubelab/api';
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interface.js';
import { Names } from '../../framework/names.js';

export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

export class PrioritySort implements QueueSortPlugin {
  readonly name = Names.PrioritySort;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = podPriority(a.pod);
    const pb = podPriority(b.pod);
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}

export const newPrioritySort = (): QueueSortPlugin => new PrioritySort();
