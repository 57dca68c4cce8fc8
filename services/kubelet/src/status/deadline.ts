// spec.activeDeadlineSeconds (upstream pkg/kubelet/active_deadline.go): once
// a pod has been active on the node for its deadline, counted from
// status.startTime, the kubelet fails it with reason DeadlineExceeded and
// kills its containers. The deadline is pod time: --time-scale shortens it.

import type { Pod, PodStatus } from '@kubelab/api';

export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded';
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline';

/** Whether the pod is past its active deadline (no deadline or no start time: never). */
export function pastActiveDeadline(pod: Pod, status: PodStatus | undefined, now: number, timeScale = 1): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  if (deadline === undefined || deadline === null) return false;
  const start = status?.startTime ? Date.parse(status.startTime) : NaN;
  if (Number.isNaN(start)) return false;
  return (now - start) * timeScale >= deadline * 1000;
}
