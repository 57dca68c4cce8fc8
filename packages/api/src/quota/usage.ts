// Quota usage math (pkg/quota/v1: resources.go, the core evaluators in
// evaluator/core, generic's object counts): what an object costs, which
// quotas it falls under, and the sums kept in a quota's status.

import type { KubeObject } from '../meta/types.js';
import type { Pod, ResourceList, ResourceQuota, ScopedResourceSelectorRequirement, Service } from '../core/v1/types.js';
import type { PersistentVolumeClaim } from '../core/v1/persistentvolume.js';
import { podQOSClass, podRequests } from '../helpers/pod.js';
import { Quantity } from '../resource/quantity.js';

/** A resource name to its quantity: usage, hard limits. */
export type ResourceUsage = Map<string, Quantity>;

export function toUsage(list: ResourceList | undefined): ResourceUsage {
  const m: ResourceUsage = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = Quantity.tryParse(v);
    if (q) m.set(k, q);
  }
  return m;
}

export function toResourceList(u: ResourceUsage): ResourceList {
  const out: ResourceList = {};
  for (const k of [...u.keys()].sort()) out[k] = u.get(k)!.toString();
  return out;
}

/** quota.Add: the sum per resource of both lists. */
export function addUsage(a: ResourceUsage, b: ResourceUsage): ResourceUsage {
  const out = new Map(a);
  for (const [k, q] of b) out.set(k, out.has(k) ? out.get(k)!.add(q) : q);
  return out;
}

/** quota.Mask: only the named resources. */
export function maskUsage(u: ResourceUsage, names: Iterable<string>): ResourceUsage {
  const out: ResourceUsage = new Map();
  for (const k of names) if (u.has(k)) out.set(k, u.get(k)!);
  return out;
}

/** quota.LessThanOrEqual: the resources of `a` over what `b` holds (a resource `b` lacks is not limited). */
export function exceededResources(a: ResourceUsage, b: ResourceUsage): string[] {
  return [...a].filter(([k, q]) => b.has(k) && q.cmp(b.get(k)!) > 0).map(([k]) => k);
}

/** The quota messages' list: `name=value` sorted by name, comma-joined (prettyPrint). */
export const prettyPrintUsage = (u: ResourceUsage): string =>
  [...u.keys()]
    .sort()
    .map((k) => `${k}=${u.get(k)!.toString()}`)
    .join(',');

/** ObjectCountQuotaResourceNameFor: count/<resource> for core, count/<resource>.<group> otherwise. */
export const objectCountName = (group: string, resource: string): string => (group ? `count/${resource}.${group}` : `count/${resource}`);

const one = () => Quantity.fromValue(1);

// ---- pods (evaluator/core/pods.go) ----

/** The resources a pod quota can track besides hugepages (podResources). */
const POD_RESOURCES = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);

/** The resources that, once quota limits them, every container must set (validationSet). */
const POD_CONSTRAINED = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** QuotaV1Pod: terminal pods, and pods past their deletion grace period, cost nothing but their object count. */
export function isQuotaCountedPod(pod: Pod, now: Date): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (del && grace !== undefined && grace !== null && now.getTime() > Date.parse(del) + grace * 1000) return false;
  return true;
}

/** PodLimits: the sum over containers and sidecars, at least each regular init container's, plus overhead for what is limited. */
function podLimits(pod: Pod): ResourceUsage {
  let sum: ResourceUsage = new Map();
  for (const c of pod.spec?.containers ?? []) sum = addUsage(sum, toUsage(c.resources?.limits));
  let sidecars: ResourceUsage = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const lim = toUsage(c.resources?.limits);
    if (c.restartPolicy === 'Always') {
      sum = addUsage(sum, lim);
      sidecars = addUsage(sidecars, lim);
      continue;
    }
    for (const [k, q] of addUsage(lim, sidecars)) if (!sum.has(k) || q.cmp(sum.get(k)!) > 0) sum.set(k, q);
  }
  const overhead = toUsage(pod.spec?.overhead);
  for (const [k, q] of overhead) if (sum.has(k)) sum.set(k, sum.get(k)!.add(q));
  return sum;
}

/** podComputeUsageHelper: `pods` 1, and each request as `requests.<r>` (cpu and memory also bare), each limit as `limits.<r>`. */
function computeUsage(requests: ResourceUsage, limits: ResourceUsage): ResourceUsage {
  const out: ResourceUsage = new Map([['pods', one()]]);
  for (const [k, q] of requests) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') out.set(k, q);
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage' || k.startsWith('hugepages-')) out.set(`requests.${k}`, q);
  }
  for (const [k, q] of limits) if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage' || k.startsWith('hugepages-')) out.set(`limits.${k}`, q);
  return out;
}

/** PodUsageFunc: count/pods always; the compute resources while the pod counts. */
export function podUsage(pod: Pod, now: Date): ResourceUsage {
  const count: ResourceUsage = new Map([['count/pods', one()]]);
  if (!isQuotaCountedPod(pod, now)) return count;
  return addUsage(count, computeUsage(podRequests(pod), podLimits(pod)));
}

/** The pod evaluator's Constraints: a quota on cpu or memory makes every container set it; the upstream text, or undefined. */
export function podQuotaConstraints(required: readonly string[], pod: Pod): string | undefined {
  const req = POD_CONSTRAINED.filter((r) => required.includes(r));
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const has = computeUsage(toUsage(c.resources?.requests), toUsage(c.resources?.limits));
    for (const r of req) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name));
  }
  if (!missing.size) return undefined;
  const each = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${each.join('; ')}`;
}

/** GetScopeSelectorsFromQuota: the scopes as Exists requirements, then the selector's expressions. */
export function quotaScopeSelectors(rq: ResourceQuota): ScopedResourceSelectorRequirement[] {
  return [...(rq.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' })), ...(rq.spec?.scopeSelector?.matchExpressions ?? [])];
}

/** podMatchesScopeFunc. */
export function podMatchesScope(sel: ScopedResourceSelectorRequirement, pod: Pod): boolean {
  const terminating = pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds !== null && pod.spec.activeDeadlineSeconds >= 0;
  switch (sel.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return podQOSClass(pod) === 'BestEffort';
    case 'NotBestEffort':
      return podQOSClass(pod) !== 'BestEffort';
    case 'PriorityClass': {
      const name = pod.spec?.priorityClassName ?? '';
      if (sel.operator === 'Exists') return name !== '';
      // podMatchesSelector: a label set {PriorityClass: <name>} against the requirement.
      if (sel.operator === 'In') return (sel.values ?? []).includes(name);
      if (sel.operator === 'NotIn') return !(sel.values ?? []).includes(name);
      return false;
    }
    default:
      // CrossNamespacePodAffinity is not modelled: no pod falls under it.
      return false;
  }
}

// ---- the evaluators ----

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** Usage: what one object of a resource costs. */
export function objectUsage(group: string, resource: string, obj: KubeObject, now: Date): ResourceUsage {
  if (group === '' && resource === 'pods') return podUsage(obj as Pod, now);
  const out: ResourceUsage = new Map([[objectCountName(group, resource), one()]]);
  if (group !== '') return out;
  if (resource === 'services') {
    const svc = obj as Service;
    const ports = svc.spec?.ports?.length ?? 0;
    const lb = svc.spec?.type === 'LoadBalancer';
    out.set('services', one());
    out.set('services.loadbalancers', Quantity.fromValue(lb ? 1 : 0));
    out.set('services.nodeports', Quantity.fromValue(svc.spec?.type === 'NodePort' || (lb && svc.spec?.allocateLoadBalancerNodePorts !== false) ? ports : 0));
  } else if (resource === 'configmaps' || resource === 'secrets' || resource === 'replicationcontrollers' || resource === 'resourcequotas') {
    out.set(resource, one());
  } else if (resource === 'persistentvolumeclaims') {
    const pvc = obj as PersistentVolumeClaim;
    const cls = pvc.spec?.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
    out.set('persistentvolumeclaims', one());
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one());
    // getStorageUsage: the larger of the request and what was allocated.
    const req = toUsage(pvc.spec?.resources?.requests).get('storage');
    const alloc = toUsage(pvc.status?.allocatedResources).get('storage');
    const storage = req && alloc ? (alloc.cmp(req) > 0 ? alloc : req) : (req ?? alloc);
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
  }
  return out;
}

/** MatchingResources: the names among `names` this resource's evaluator tracks. */
export function matchingResources(group: string, resource: string, names: Iterable<string>): string[] {
  const count = objectCountName(group, resource);
  return [...names].filter((n) => {
    if (n === count) return true;
    if (group !== '') return false;
    switch (resource) {
      case 'pods':
        return POD_RESOURCES.has(n) || n.startsWith('requests.hugepages-') || n.startsWith('limits.hugepages-');
      case 'services':
        return n === 'services' || n === 'services.loadbalancers' || n === 'services.nodeports';
      case 'persistentvolumeclaims':
        return n === 'persistentvolumeclaims' || n === 'requests.storage' || n.endsWith(`${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`) || n.endsWith(`${STORAGE_CLASS_SUFFIX}requests.storage`);
      case 'configmaps':
      case 'secrets':
      case 'replicationcontrollers':
      case 'resourcequotas':
        return n === resource;
      default:
        return false;
    }
  });
}

/** Matches: the quota tracks one of the object's resources, and the object is in all the quota's scopes (only pods have scopes). */
export function quotaMatches(rq: ResourceQuota, hard: ResourceList | undefined, group: string, resource: string, obj: KubeObject): boolean {
  if (!matchingResources(group, resource, Object.keys(hard ?? {})).length) return false;
  const isPod = group === '' && resource === 'pods';
  return quotaScopeSelectors(rq).every((sel) => isPod && podMatchesScope(sel, obj as Pod));
}

/**
 * CalculateUsage (the quota controller's recount): for each resource of
 * spec.hard some evaluator tracks, 0 plus the usage of every object in the
 * namespace the quota's scopes select.
 */
export function calculateQuotaUsage(rq: ResourceQuota, objects: ReadonlyArray<{ group: string; resource: string; items: readonly KubeObject[] }>, now: Date): ResourceUsage {
  const hard = Object.keys(rq.spec?.hard ?? {});
  let used: ResourceUsage = new Map();
  for (const { group, resource, items } of objects) {
    const names = matchingResources(group, resource, hard);
    if (!names.length) continue;
    for (const n of names) if (!used.has(n)) used.set(n, Quantity.zero());
    const isPod = group === '' && resource === 'pods';
    const selectors = quotaScopeSelectors(rq);
    for (const o of items) {
      if (!selectors.every((sel) => isPod && podMatchesScope(sel, o as Pod))) continue;
      used = addUsage(used, maskUsage(objectUsage(group, resource, o, now), names));
    }
  }
  return used;
}
