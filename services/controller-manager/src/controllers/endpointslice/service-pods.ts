// Which Services select a pod (GetPodServiceMemberships), shared by the
// EndpointSlice and Endpoints controllers' pod handlers.

import { matchesSet, type Pod, type Service } from '@kubelab/api';
import type { Lister } from '@kubelab/client';

export function servicesForPod(services: Lister<Service>, pod: Pod): Service[] {
  return services
    .namespace(pod.metadata.namespace ?? '')
    .list()
    .filter((s) => {
      const sel = s.spec?.selector;
      return !!sel && Object.keys(sel).length > 0 && matchesSet(sel, pod.metadata.labels);
    });
}

/** Pods of the Service's namespace its selector matches. */
export function podsForService(pods: Lister<Pod>, svc: Service): Pod[] {
  const sel = svc.spec?.selector ?? {};
  return pods.namespace(svc.metadata.namespace ?? '').list((l) => matchesSet(sel, l));
}

/** A pod change that can change endpoints (podEndpointsChanged + label moves). */
export function podChangeMatters(old: Pod, cur: Pod): boolean {
  if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return false;
  const pick = (p: Pod) =>
    JSON.stringify([
      p.metadata.labels,
      p.metadata.deletionTimestamp,
      p.status?.podIP,
      p.status?.phase,
      p.spec?.nodeName,
      p.status?.conditions?.find((c) => c.type === 'Ready')?.status,
      p.spec?.hostname,
      p.spec?.subdomain,
    ]);
  return pick(old) !== pick(cur);
}
