// Which Services select a pod (GetPodServiceMemberships) and the Service/pod
// event handlers, shared by the EndpointSlice and Endpoints controllers.

import { matchesSet, type Pod, type Service } from '@kubelab/api';
import { metaNamespaceKey, unwrapTombstone, type Lister, type SharedIndexInformer } from '@kubelab/client';

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

/**
 * Enqueues a Service key on its own changes and on changes of the pods it
 * selects (GetServicesToUpdateOnPodChange: a pod whose labels moved also
 * requeues the Services it left). Both endpoints controllers share this.
 */
export function enqueueServicesAndPods(svc: SharedIndexInformer<Service>, pods: SharedIndexInformer<Pod>, services: Lister<Service>, enqueue: (key: string) => void): void {
  svc.addEventHandler({
    onAdd: (s) => enqueue(metaNamespaceKey(s)),
    onUpdate: (_o, s) => enqueue(metaNamespaceKey(s)),
    onDelete: (o) => enqueue(metaNamespaceKey(unwrapTombstone(o))),
  });
  const forPod = (p: Pod) => {
    for (const s of servicesForPod(services, p)) enqueue(metaNamespaceKey(s));
  };
  pods.addEventHandler({
    onAdd: forPod,
    onUpdate: (o, p) => {
      if (!podChangeMatters(o, p)) return;
      forPod(p);
      if (JSON.stringify(o.metadata.labels) !== JSON.stringify(p.metadata.labels)) forPod(o);
    },
    onDelete: (o) => forPod(unwrapTombstone(o)),
  });
}
