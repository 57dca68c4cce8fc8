// What crosses a boundary, as flow messages: the runtime's CRI call records
// (NATS kubelab.cri.<node>.<method>), kube-proxy's rules syncs
// (kubelab.proxy.<node>), the apiserver's request records
// (kubelab.api.<verb>.<resource>, read leniently: any JSON object naming a
// verb), Events as their reporting component writes them, and the watch
// deliveries the dashboard itself receives.

import type { Event, KubeObject } from '@kubelab/api';
import { decodeCriCallRecord } from '@kubelab/proto/cri-record';
import { decodeProxySyncRecord } from '@kubelab/proto/proxy-record';
import type { FlowMessage } from './flow.js';

export type Unsequenced = Omit<FlowMessage, 'seq'>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function ms(iso: string | undefined, fallback: number): number {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? fallback : t;
}

/** A CRI record's body → the kubelet-to-containerd message; undefined when it is no record. */
export function criMessage(data: string, now = Date.now()): Unsequenced | undefined {
  const rec = decodeCriCallRecord(data);
  if (!rec) return undefined;
  let namespace = rec.podNamespace;
  let name = rec.podName;
  const p = rec.request.pod;
  if (!name && typeof p === 'string' && p.includes('/')) {
    namespace = p.slice(0, p.indexOf('/'));
    name = p.slice(p.indexOf('/') + 1);
  }
  const image = (rec.request.image as { image?: unknown } | undefined)?.image ?? rec.request.image;
  const detail = [rec.containerName ? `container=${rec.containerName}` : '', typeof image === 'string' ? `image=${image}` : ''].filter(Boolean).join(' ');
  return {
    time: ms(rec.time, now),
    durationMs: rec.durationMs,
    kind: 'cri',
    from: `kubelet(${rec.node})`,
    to: `containerd(${rec.node})`,
    node: rec.node,
    ...(name && name !== 'undefined' ? { objectKind: 'Pod', name, ...(namespace ? { namespace } : {}) } : {}),
    method: rec.method,
    ...(detail ? { detail } : {}),
    code: rec.code,
    ...(rec.traceId ? { traceId: rec.traceId } : {}),
  };
}

/**
 * A kube-proxy sync record (kubelab.proxy.<node>) → the message from the
 * node's kube-proxy to where its rules went: `iptables(node-1)` when applied,
 * `socket-lb(node-1)` for the local runner's connect-time map, `render(node-1)`
 * when only rendered. The Service or EndpointSlice change that queued the sync
 * is its object.
 */
export function proxyMessage(data: string, now = Date.now()): Unsequenced | undefined {
  const rec = decodeProxySyncRecord(data);
  if (!rec) return undefined;
  const to = rec.dataPath === 'kernel' ? rec.mode : rec.dataPath;
  const trigger = rec.trigger ? /^(\S+) (?:([^/\s]+)\/)?(\S+)$/.exec(rec.trigger) : null;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const detail = [
    plural(rec.services, 'service'),
    plural(rec.endpoints, 'endpoint'),
    rec.error ? 'nothing written' : plural(rec.rules, 'rule'),
    rec.fullSync ? 'full' : 'partial',
    rec.changes && rec.changes > 1 ? `${rec.changes} changes` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    time: ms(rec.time, now),
    durationMs: rec.durationMs,
    kind: 'proxy',
    from: `kube-proxy(${rec.node})`,
    to: `${to}(${rec.node})`,
    node: rec.node,
    ...(trigger ? { objectKind: trigger[1]!, ...(trigger[2] ? { namespace: trigger[2] } : {}), name: trigger[3]! } : {}),
    method: 'sync',
    detail: rec.error ? `${detail}: ${rec.error}` : detail,
    code: rec.error ? 'Failed' : 'OK',
  };
}

/** An apiserver request record (subject kubelab.api.<verb>.<resource>) → the client-to-apiserver message. */
export function apiMessage(subject: string, data: string, now = Date.now()): Unsequenced | undefined {
  let r: Record<string, unknown>;
  try {
    const v = JSON.parse(data) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    r = v as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const parts = subject.split('.');
  const verb = str(r.verb) ?? parts[2];
  const resource = str(r.resource) ?? parts[3];
  if (!verb || !resource) return undefined;
  const user = str(r.user) ?? str(r.userAgent) ?? str(r.component) ?? 'client';
  const name = str(r.name);
  const namespace = str(r.namespace);
  // `create pods/binding` is the scheduler's bind, `patch pods/status` a kubelet's report: as kubectl names them.
  const subresource = str(r.subresource);
  const code = r.code ?? r.status;
  return {
    time: ms(str(r.time), now),
    ...(typeof r.durationMs === 'number' ? { durationMs: r.durationMs } : {}),
    kind: 'api',
    from: clientLane(user),
    to: 'apiserver',
    objectKind: kindOf(resource),
    ...(name ? { name } : {}),
    ...(namespace ? { namespace } : {}),
    method: `${verb} ${resource}${subresource ? `/${subresource}` : ''}`,
    ...(code !== undefined ? { code: String(code) } : {}),
    ...(str(r.traceId) ? { traceId: str(r.traceId)! } : {}),
  };
}

const ADDON_SERVICE_ACCOUNTS = new Set(['coredns', 'metrics-server', 'kube-network-policies', 'kube-proxy', 'node-problem-detector']);

/** A request's user or agent → a lane: system:kube-scheduler → scheduler, system:node:node-1 → kubelet(node-1). */
export function clientLane(user: string): string {
  if (user.startsWith('system:node:')) return `kubelet(${user.slice('system:node:'.length)})`;
  if (user === 'system:kube-scheduler' || user.startsWith('kube-scheduler')) return 'scheduler';
  if (user === 'system:kube-controller-manager' || user.startsWith('system:serviceaccount:kube-system:') || user.startsWith('kube-controller-manager')) {
    if (user === 'system:serviceaccount:kube-system:kubelab-dashboard') return 'dashboard';
    // The add-ons' own ServiceAccounts are lanes of their own; the rest are the controller-manager's controllers.
    const sa = user.slice('system:serviceaccount:kube-system:'.length);
    if (ADDON_SERVICE_ACCOUNTS.has(sa)) return sa;
    return 'controller-manager';
  }
  if (user === 'system:kube-proxy' || user.startsWith('kube-proxy')) return 'kube-proxy';
  if (user === 'kubernetes-admin' || user.startsWith('kubectl')) return 'kubectl';
  return user;
}

const KINDS: Record<string, string> = {
  pods: 'Pod',
  nodes: 'Node',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
  events: 'Event',
  services: 'Service',
  endpointslices: 'EndpointSlice',
  leases: 'Lease',
};

function kindOf(resource: string): string {
  return KINDS[resource.split('/')[0]!] ?? resource;
}

/** Who wrote an Event → its lane (default-scheduler → scheduler, kubelet on node-1 → kubelet(node-1)). */
function reporterLane(e: Event): { lane: string; node?: string } {
  const component = e.reportingComponent || e.source?.component || 'unknown';
  const host = e.reportingInstance || e.source?.host;
  if (component === 'default-scheduler') return { lane: 'scheduler' };
  if (component === 'kubelet') return host ? { lane: `kubelet(${host})`, node: host } : { lane: 'kubelet' };
  if (component.endsWith('-controller') || component.includes('controller')) return { lane: 'controller-manager' };
  return { lane: component };
}

/** An Event the watch delivered → the message its reporter sent (reason, message). */
export function eventMessage(e: Event, now = Date.now()): Unsequenced {
  const { lane, node } = reporterLane(e);
  const o = e.involvedObject ?? {};
  const time = ms(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp, now);
  return {
    time,
    kind: 'event',
    from: lane,
    to: 'apiserver',
    ...(node ? { node } : o.kind === 'Node' && o.name ? { node: o.name } : {}),
    ...(o.kind ? { objectKind: o.kind } : {}),
    ...(o.name ? { name: o.name } : {}),
    ...(o.namespace ? { namespace: o.namespace } : {}),
    method: e.reason ?? 'Event',
    ...(e.message ? { detail: e.message } : {}),
    code: e.type ?? 'Normal',
  };
}

/** A watch delivery to the dashboard's informer (ADDED/MODIFIED/DELETED of a pod or node). */
export function watchMessage(type: 'ADDED' | 'MODIFIED' | 'DELETED', kind: string, obj: KubeObject, detail: string | undefined, now = Date.now()): Unsequenced {
  const node = kind === 'Node' ? obj.metadata?.name : (obj as { spec?: { nodeName?: string } }).spec?.nodeName;
  return {
    time: now,
    kind: 'watch',
    from: 'apiserver',
    to: 'dashboard',
    ...(node ? { node } : {}),
    objectKind: kind,
    ...(obj.metadata?.name ? { name: obj.metadata.name } : {}),
    ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    method: type,
    ...(detail ? { detail } : {}),
  };
}

/**
 * The apiserver's watch delivery record (kubelab.api.watch.<resource>: what
 * its watches delivered to whom in 100 ms, summed per watcher and event
 * type) → the apiserver-to-informer messages: one per object it names (the
 * pod story and the object filter find them), and one for the rest of a sum.
 * The dashboard's own deliveries are left out (it records those itself).
 */
export function watchDeliveryMessages(data: string, now = Date.now()): Unsequenced[] {
  let r: Record<string, unknown>;
  try {
    const v = JSON.parse(data) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return [];
    r = v as Record<string, unknown>;
  } catch {
    return [];
  }
  const resource = str(r.resource);
  if (r.kind !== 'WatchDeliveries' || !resource || !Array.isArray(r.deliveries)) return [];
  const time = ms(str(r.time), now);
  const objectKind = kindOf(resource);
  const out: Unsequenced[] = [];
  for (const d of r.deliveries as unknown[]) {
    if (!d || typeof d !== 'object') continue;
    const { user, type, count, objects } = d as Record<string, unknown>;
    if (typeof user !== 'string' || typeof type !== 'string' || typeof count !== 'number' || count < 1) continue;
    const to = clientLane(user);
    if (to === 'dashboard') continue;
    const node = to.startsWith('kubelet(') ? to.slice('kubelet('.length, -1) : undefined;
    const base = { time, kind: 'watch' as const, from: 'apiserver', to, ...(node ? { node } : {}), objectKind, method: type };
    const offsets = Array.isArray((d as Record<string, unknown>).offsetsMs) ? ((d as Record<string, unknown>).offsetsMs as unknown[]) : [];
    const named = Array.isArray(objects) ? objects.slice(0, count) : [];
    let shown = 0;
    named.forEach((o, i) => {
      if (typeof o !== 'string' || o === '') return;
      shown++;
      const slash = o.indexOf('/');
      const at = typeof offsets[i] === 'number' && Number.isFinite(offsets[i]) ? time + (offsets[i] as number) : time;
      out.push({ ...base, time: at, ...(slash > 0 ? { namespace: o.slice(0, slash), name: o.slice(slash + 1) } : { name: o }), detail: 'informer event' });
    });
    const rest = count - shown;
    if (rest > 0) out.push({ ...base, detail: `${rest}${shown ? ' more' : ''} ${resource} event${rest === 1 ? '' : 's'} in ${typeof r.windowMs === 'number' ? r.windowMs : 100} ms` });
  }
  return out;
}
