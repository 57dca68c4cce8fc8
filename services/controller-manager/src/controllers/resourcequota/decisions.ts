// The resource quota controller's decisions (pkg/controller/resourcequota
// syncResourceQuota), as pure functions: the status a quota should have from
// the objects of its namespace, and which object changes call for a recount.

import { calculateQuotaUsage, matchingResources, objectUsage, toResourceList, toUsage, type KubeObject, type ResourceList, type ResourceQuota, type ResourceQuotaStatus } from '@kubelab/api';

/** One counted resource and the objects of the quota's namespace. */
export interface CountedObjects {
  group: string;
  resource: string;
  items: readonly KubeObject[];
}

/** quota.Equals: the same resources with equal quantities (`1000m` equals `1`). */
export function quantitiesEqual(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const x = toUsage(a);
  const y = toUsage(b);
  return x.size === y.size && [...x].every(([k, q]) => y.has(k) && q.cmp(y.get(k)!) === 0);
}

/**
 * The status a quota should have: hard copied from spec.hard; used recounted
 * for each hard resource an evaluator tracks (kept as last written for one
 * that none does), and nothing outside hard. Undefined when it already has it.
 */
export function desiredQuotaStatus(rq: ResourceQuota, objects: readonly CountedObjects[], now: Date): ResourceQuotaStatus | undefined {
  const hard = { ...(rq.spec?.hard ?? {}) };
  const counted = toResourceList(calculateQuotaUsage(rq, objects, now));
  const used: ResourceList = {};
  for (const k of Object.keys(hard).sort()) {
    const v = counted[k] ?? rq.status?.used?.[k];
    if (v !== undefined) used[k] = v;
  }
  const current = rq.status ?? {};
  if (quantitiesEqual(hard, current.hard) && quantitiesEqual(used, current.used) && current.hard !== undefined && current.used !== undefined) return undefined;
  return { hard, used };
}

/** Whether an object's change moves any quota: its usage differs (a pod turning terminal, a service's type, a claim's size). */
export function usageChanged(group: string, resource: string, old: KubeObject, cur: KubeObject, now: Date): boolean {
  return !quantitiesEqual(toResourceList(objectUsage(group, resource, old, now)), toResourceList(objectUsage(group, resource, cur, now)));
}

/** Whether a quota tracks anything of this resource (replenishQuota's filter). */
export const quotaTracks = (rq: ResourceQuota, group: string, resource: string): boolean => matchingResources(group, resource, Object.keys(rq.status?.hard ?? rq.spec?.hard ?? {})).length > 0;
