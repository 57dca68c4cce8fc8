// The pods of a resource metric as the replica calculator sees them
// (upstream replica_calculator.go groupPods and calculatePodRequests): a
// deleted or Failed pod is ignored; a Pending one is unready; for CPU a
// pod is unready while it has no Ready condition or start time, within
// its first 5 minutes when not Ready or not yet measured over a full window
// since its last readiness change, and later only if it never became Ready.

import { getPodCondition, Quantity, type Pod } from '@kubelab/api';
import type { PodMetric } from './metrics.js';
import type { PodSample } from './replica-calculator.js';

/** --horizontal-pod-autoscaler-cpu-initialization-period default. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay default. */
export const INITIAL_READINESS_DELAY_MS = 30_000;

function unreadyForCpu(pod: Pod, metric: PodMetric, now: number): boolean {
  const ready = getPodCondition(pod.status, 'Ready').condition;
  const start = pod.status?.startTime ? Date.parse(pod.status.startTime) : undefined;
  if (!ready || start === undefined) return true;
  const transition = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  if (start + CPU_INITIALIZATION_PERIOD_MS > now) return ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
  return ready.status === 'False' && start + INITIAL_READINESS_DELAY_MS > transition;
}

/** The sum of the containers' requests of `resource` (milli-units), or the first container without one. */
function podRequest(pod: Pod, resource: string, container?: string): { request?: number; missing?: string } {
  let sum = 0;
  for (const c of pod.spec?.containers ?? []) {
    if (container !== undefined && c.name !== container) continue;
    const r = c.resources?.requests?.[resource];
    const q = r !== undefined ? Quantity.tryParse(r) : undefined;
    if (!q) return { missing: c.name };
    sum += q.milliValue();
  }
  return { request: sum };
}

export function podSamples(pods: readonly Pod[], metrics: ReadonlyMap<string, PodMetric>, resource: string, now: number, container?: string): PodSample[] {
  return pods.map((pod) => {
    const name = pod.metadata.name ?? '';
    const ignored = !!pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed';
    const metric = metrics.get(name);
    let ready = pod.status?.phase !== 'Pending';
    if (ready && metric && resource === 'cpu') ready = !unreadyForCpu(pod, metric, now);
    const { request, missing } = podRequest(pod, resource, container);
    return { name, ready, ignored, request, ...(missing !== undefined ? { missingRequestContainer: missing } : {}) };
  });
}
