// What a Service's EndpointSlices should hold (pkg/controller/endpointslice
// reconciler + utils), as pure functions: endpoints from pods, ports
// resolved by name, grouping by port set, placement into slices of at most
// --max-endpoints-per-slice, and the legacy Endpoints subsets.

import { canonicalJson, isPodReady, isPodTerminal, type Endpoint, type EndpointPort, type EndpointSlice, type EndpointSubset, type Node, type Pod, type Service } from '@kubelab/api';

export const MANAGED_BY = 'endpointslice-controller.k8s.io';
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** ShouldPodBeInEndpoints (terminating pods included, as EndpointSlices carry them). */
export function podInEndpoints(pod: Pod): boolean {
  return !isPodTerminal(pod) && !!pod.status?.podIP;
}

/** FindPort: a service targetPort (number, or a container port name) on this pod; undefined when the name is absent. */
export function findPort(pod: Pod, targetPort: number | string | undefined, servicePort: number, protocol: string): number | undefined {
  if (targetPort === undefined || targetPort === '' || targetPort === 0) return servicePort;
  if (typeof targetPort === 'number') return targetPort;
  if (/^\d+$/.test(targetPort)) return Number(targetPort);
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === targetPort && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  // Sidecars (init containers with restartPolicy Always) serve for the pod's whole life, so their ports count too.
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy !== 'Always') continue;
    for (const p of c.ports ?? []) if (p.name === targetPort && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** The endpoint ports of a pod for a Service (getEndpointPorts): ports whose name resolves. */
export function endpointPorts(svc: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const protocol = sp.protocol ?? 'TCP';
    const port = findPort(pod, sp.targetPort, sp.port, protocol);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** podToEndpoint: conditions from readiness and deletion. */
export function podToEndpoint(pod: Pod, svc: Service, node: Node | undefined): Endpoint {
  const ready = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  const ep: Endpoint = {
    addresses: [pod.status?.podIP ?? ''],
    // serving is the pod's own readiness; publishNotReadyAddresses only forces ready (as upstream).
    conditions: { ready: publishNotReady || (ready && !terminating), serving: ready, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata.labels?.[ZONE_LABEL];
  if (zone) ep.zone = zone;
  if (pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name && svc.metadata.namespace === pod.metadata.namespace) ep.hostname = pod.spec.hostname;
  return ep;
}

/** Endpoints grouped by their resolved port set (one slice family per set). */
export function desiredByPortSet(svc: Service, pods: readonly Pod[], nodeOf: (name: string) => Node | undefined): Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }> {
  const out = new Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>();
  for (const pod of pods) {
    if (!podInEndpoints(pod)) continue;
    const ports = endpointPorts(svc, pod);
    const key = portSetKey(ports);
    let g = out.get(key);
    if (!g) out.set(key, (g = { ports, endpoints: [] }));
    g.endpoints.push(podToEndpoint(pod, svc, pod.spec?.nodeName ? nodeOf(pod.spec.nodeName) : undefined));
  }
  for (const g of out.values()) g.endpoints.sort((a, b) => (a.addresses[0] ?? '').localeCompare(b.addresses[0] ?? '') || (a.targetRef?.name ?? '').localeCompare(b.targetRef?.name ?? ''));
  return out;
}

export function portSetKey(ports: readonly EndpointPort[] | undefined): string {
  return canonicalJson([...(ports ?? [])].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || (a.port ?? 0) - (b.port ?? 0)));
}

const epKey = (e: Endpoint) => e.targetRef?.uid || e.addresses.join(',');

export interface SlicePlan {
  /** Full new contents of existing slices that change. */
  update: EndpointSlice[];
  /** Slices to create (no name yet). */
  create: Array<{ ports: EndpointPort[]; endpoints: Endpoint[] }>;
  delete: EndpointSlice[];
}

/**
 * The reconciler: per port set, keep endpoints where they are (updating
 * them in place), drop the ones gone, fill free room in existing slices,
 * then open new slices. Slices of vanished port sets go, except that a
 * Service always keeps one slice (an empty placeholder when it has no endpoints).
 */
export function planSlices(existing: readonly EndpointSlice[], desired: Map<string, { ports: EndpointPort[]; endpoints: Endpoint[] }>, max: number): SlicePlan {
  const plan: SlicePlan = { update: [], create: [], delete: [] };
  const byPortSet = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const k = portSetKey(s.ports);
    if (!byPortSet.has(k)) byPortSet.set(k, []);
    byPortSet.get(k)!.push(s);
  }
  for (const [k, want] of desired) {
    const slices = (byPortSet.get(k) ?? []).map((s) => ({ orig: s, eps: [...s.endpoints] }));
    byPortSet.delete(k);
    const wanted = new Map(want.endpoints.map((e) => [epKey(e), e]));
    const placed = new Set<string>();
    for (const s of slices) {
      s.eps = s.eps.flatMap((e) => {
        const w = wanted.get(epKey(e));
        if (!w || placed.has(epKey(e))) return [];
        placed.add(epKey(e));
        return [w];
      });
    }
    const fresh = want.endpoints.filter((e) => !placed.has(epKey(e)));
    for (const s of slices) while (s.eps.length < max && fresh.length) s.eps.push(fresh.shift()!);
    for (const s of slices) {
      if (s.eps.length === 0) plan.delete.push(s.orig);
      else if (canonicalJson(s.eps) !== canonicalJson(s.orig.endpoints)) plan.update.push({ ...structuredClone(s.orig), endpoints: s.eps });
    }
    while (fresh.length) plan.create.push({ ports: want.ports, endpoints: fresh.splice(0, max) });
  }
  for (const rest of byPortSet.values()) plan.delete.push(...rest);
  // A Service always has at least one slice: keep (or make) an empty placeholder.
  const remaining = existing.length - plan.delete.length + plan.create.length;
  if (remaining === 0) {
    const placeholder = plan.delete.find((s) => (s.ports ?? []).length === 0 && s.endpoints.length === 0) ?? undefined;
    if (placeholder) plan.delete = plan.delete.filter((s) => s !== placeholder);
    else plan.create.push({ ports: [], endpoints: [] });
  }
  return plan;
}

/** The legacy Endpoints subsets: ready and not-ready addresses per port set (terminating pods left out). */
export function endpointsSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const groups = new Map<string, EndpointSubset>();
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  for (const pod of pods) {
    if (!podInEndpoints(pod) || (pod.metadata.deletionTimestamp && !publishNotReady)) continue;
    const ports = endpointPorts(svc, pod).map((p) => ({
      ...(p.name ? { name: p.name } : {}),
      port: p.port ?? 0,
      protocol: p.protocol ?? 'TCP',
      ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
    }));
    const key = canonicalJson(ports);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ports }));
    const addr = {
      ip: pod.status?.podIP ?? '',
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
    };
    if (publishNotReady || isPodReady(pod)) (g.addresses ??= []).push(addr);
    else (g.notReadyAddresses ??= []).push(addr);
  }
  const byIp = (a: { ip: string }, b: { ip: string }) => a.ip.localeCompare(b.ip);
  return [...groups.values()]
    .filter((g) => (g.ports?.length ?? 0) > 0 || !svc.spec?.ports?.length)
    .map((g) => ({
      ...(g.addresses ? { addresses: g.addresses.sort(byIp) } : {}),
      ...(g.notReadyAddresses ? { notReadyAddresses: g.notReadyAddresses.sort(byIp) } : {}),
      ports: g.ports ?? [],
    }));
}
