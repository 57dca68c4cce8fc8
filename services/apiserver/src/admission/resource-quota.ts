// The ResourceQuota admission plugin (plugin/pkg/admission/resourcequota):
// a new object's usage is added to every quota of its namespace that tracks
// it; over a hard limit it is Forbidden with "exceeded quota", else the new
// usage is written to the quotas' status before the object is stored, so
// the next create counts it (upstream's optimistic increment, which the
// quota controller's recount later corrects).

import {
  addUsage,
  exceededResources,
  isConflict,
  lookupResource,
  maskUsage,
  matchingResources,
  objectUsage,
  podQuotaConstraints,
  prettyPrintUsage,
  quotaMatches,
  storagePrefix,
  toResourceList,
  toUsage,
  forbidden,
  type KubeObject,
  type Pod,
  type ResourceQuota,
} from '@kubelab/api';
import { APISERVER } from '../authentication/user.js';
import type { WatchCache } from '../cache/watch-cache.js';
import type { RequestContext, ResourceStore } from '../registry/interface.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

/** What one create does to the namespace's quotas: the quotas whose usage grows, or upstream's refusal. */
export type QuotaDecision = { updated: ResourceQuota[] } | { refused: string };

/**
 * checkRequest for a create: the quotas whose status.hard tracks the object
 * (and whose scopes take it) must have usage recorded, the pod must set what
 * they constrain, and used + requested must stay within hard.
 */
export function checkQuotas(quotas: readonly ResourceQuota[], group: string, resource: string, obj: KubeObject, now: Date): QuotaDecision {
  const interesting: ResourceQuota[] = [];
  for (const rq of quotas) {
    const hard = rq.status?.hard ?? {};
    if (!quotaMatches(rq, hard, group, resource, obj)) continue;
    const restricted = matchingResources(group, resource, Object.keys(hard));
    if (group === '' && resource === 'pods') {
      const missing = podQuotaConstraints(restricted, obj as Pod);
      if (missing) return { refused: `failed quota: ${rq.metadata.name}: ${missing}` };
    }
    // hasUsageStats: a quota the controller has not counted yet cannot admit anything it tracks.
    if (restricted.some((r) => rq.status?.used?.[r] === undefined)) {
      return { refused: `status unknown for quota: ${rq.metadata.name}, resources: ${[...restricted].sort().join(',')}` };
    }
    interesting.push(rq);
  }
  if (!interesting.length) return { updated: [] };
  const delta = new Map([...objectUsage(group, resource, obj, now)].filter(([, q]) => !q.isZero()));
  if (!delta.size) return { updated: [] };
  const updated: ResourceQuota[] = [];
  for (const rq of interesting) {
    const hard = toUsage(rq.status?.hard);
    const used = toUsage(rq.status?.used);
    const requested = maskUsage(delta, hard.keys());
    if (!requested.size) continue;
    const next = addUsage(used, requested);
    const exceeded = exceededResources(maskUsage(next, requested.keys()), hard);
    if (exceeded.length) {
      const name = rq.metadata.name;
      return {
        refused: `exceeded quota: ${name}, requested: ${prettyPrintUsage(maskUsage(requested, exceeded))}, used: ${prettyPrintUsage(maskUsage(used, exceeded))}, limited: ${prettyPrintUsage(maskUsage(hard, exceeded))}`,
      };
    }
    // A copy: the cache's objects are frozen, and the registry's update writes into what it is given.
    updated.push({ ...structuredClone(rq), status: { ...structuredClone(rq.status), used: toResourceList(next) } });
  }
  return { updated };
}

export interface QuotaSource {
  /** Whether the namespace has any quota (synchronous: most namespaces have none, and their creates stay promise-free). */
  any(namespace: string): boolean;
  /** The namespace's quotas, once this apiserver's own status writes are visible. */
  list(namespace: string): ResourceQuota[] | Promise<ResourceQuota[]>;
  /** UpdateStatus with the quota's resourceVersion as precondition; Conflict when it moved on. */
  updateStatus(rq: ResourceQuota): Promise<unknown>;
}

const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };

/** quotainstall.DefaultIgnoredResources that can be created in a namespace. */
const IGNORED = new Set(['/events', 'events.k8s.io/events', 'authorization.k8s.io/localsubjectaccessreviews']);
const MAX_ATTEMPTS = 3;

export function resourceQuota(source: QuotaSource, now: () => Date = () => new Date()): AdmissionPlugin {
  // One check-and-increment at a time per namespace (upstream: the evaluator's per-namespace work queue).
  const tails = new Map<string, Promise<void>>();
  const serially = (namespace: string, fn: () => Promise<void>): Promise<void> => {
    const run = (tails.get(namespace) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => undefined);
    tails.set(namespace, tail);
    void tail.then(() => {
      if (tails.get(namespace) === tail) tails.delete(namespace);
    });
    return run;
  };
  const admitOnce = async (a: AdmissionAttributes, last: boolean): Promise<boolean> => {
    const decision = checkQuotas(await source.list(a.namespace), a.info.group, a.info.resource, a.object!, now());
    if ('refused' in decision) throw forbidden(a.info, a.object?.metadata?.name || a.name, decision.refused);
    if (a.dryRun) return true;
    try {
      for (const rq of decision.updated) await source.updateStatus(rq);
      return true;
    } catch (err) {
      // Another writer (the controller, another apiserver) moved the quota on: count again (upstream retries 3 times, then answers the conflict).
      if (isConflict(err) && !last) return false;
      throw err;
    }
  };
  return {
    name: 'ResourceQuota',
    validate(a) {
      if (a.operation !== 'CREATE' || a.subresource || !a.namespace || !a.object || IGNORED.has(`${a.info.group}/${a.info.resource}`)) return;
      if (!tails.has(a.namespace) && !source.any(a.namespace)) return;
      return serially(a.namespace, async () => {
        for (let i = 1; !(await admitOnce(a, i === MAX_ATTEMPTS)); i++);
      });
    },
  };
}

/** The namespace's quotas from the watch cache, read after this apiserver's own writes have reached it; status written through `update`. */
export function quotasFromCache(cache: WatchCache, store: () => ResourceStore | undefined): QuotaSource {
  const prefix = storagePrefix(lookupResource('', 'v1', 'resourcequotas')!);
  const list = (namespace: string) => cache.list(prefix, namespace).map((e) => e.obj as ResourceQuota);
  return {
    any: (namespace) => list(namespace).length > 0,
    list: (namespace) => {
      const pending = cache.ownWritesApplied();
      return pending ? pending.then(() => list(namespace)) : list(namespace);
    },
    updateStatus: (rq) => store()!.update(rq.metadata.namespace, rq.metadata.name!, rq as KubeObject, ctx, 'status'),
  };
}
