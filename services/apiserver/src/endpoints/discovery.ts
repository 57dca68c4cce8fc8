// Discovery documents (upstream: apiserver/pkg/endpoints/discovery and its
// aggregated/ package): the legacy /api, /apis, /apis/<group> and the
// APIResourceList of each group version, and the aggregated
// APIGroupDiscoveryList (apidiscovery.k8s.io v2, v2beta1) that kubectl 1.27+
// asks for first. Every document is built from the resources a provider
// returns, so resources added at run time (CRDs) appear in all of them.

import { createHash } from 'node:crypto';
import { RESOURCES, apiVersionOf, type ResourceInfo } from '@kubelab/api';

/** The resources discovery describes; called per request, so a run-time change shows at once. */
export type DiscoveryProvider = () => readonly ResourceInfo[];

export const builtinResources: DiscoveryProvider = () => RESOURCES;

interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

/** What each subresource is, as discovery describes it (kind without group/version: the parent's group version). */
const SUBRESOURCES: Record<string, { kind?: string; group?: string; version?: string; verbs: string[] }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
  binding: { kind: 'Binding', verbs: ['create'] },
  eviction: { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  log: { verbs: ['get'] },
  exec: { kind: 'PodExecOptions', verbs: ['create', 'get'] },
  finalize: { verbs: ['update'] },
  token: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
  approval: { verbs: ['get', 'patch', 'update'] },
  // upstream's ProxyREST serves every method but list/watch; the kind is <Kind>ProxyOptions.
  proxy: { verbs: ['create', 'delete', 'get', 'patch', 'update'] },
};

/** The options kind of a proxy subresource (NodeProxyOptions, PodProxyOptions, ServiceProxyOptions). */
const subresourceKind = (info: ResourceInfo, sub: string): string => SUBRESOURCES[sub]?.kind ?? (sub === 'proxy' ? `${info.kind}ProxyOptions` : info.kind);

/** Subresources the REST handler actually serves. */
export const SERVED_SUBRESOURCES = new Set(Object.keys(SUBRESOURCES));

function servedSubresources(info: ResourceInfo): string[] {
  return info.subresources.filter((s) => SUBRESOURCES[s]);
}

function resourceEntries(info: ResourceInfo): APIResource[] {
  const main: APIResource = {
    name: info.resource,
    singularName: info.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: [...info.verbs],
  };
  if (info.shortNames.length) main.shortNames = [...info.shortNames];
  if (info.categories.length) main.categories = [...info.categories];
  const subs = servedSubresources(info).map((s): APIResource => {
    const d = SUBRESOURCES[s]!;
    const e: APIResource = { name: `${info.resource}/${s}`, singularName: '', namespaced: info.namespaced, kind: subresourceKind(info, s), verbs: d.verbs };
    if (d.group !== undefined) e.group = d.group;
    if (d.version !== undefined) e.version = d.version;
    return e;
  });
  return [main, ...subs];
}

export function resourceList(resources: readonly ResourceInfo[], group: string, version: string): object | undefined {
  const infos = resources.filter((r) => r.group === group && r.version === version);
  if (infos.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources: infos.flatMap(resourceEntries),
  };
}

export function legacyVersions(): object {
  return { kind: 'APIVersions', versions: ['v1'] };
}

/** The versions of a group in the order the resources list them: the first is preferred. */
function versionsOf(resources: readonly ResourceInfo[], group: string): string[] {
  return [...new Set(resources.filter((r) => r.group === group).map((r) => r.version))];
}

/** The named groups in the order the resources list them. */
function groupNames(resources: readonly ResourceInfo[]): string[] {
  return [...new Set(resources.map((r) => r.group).filter(Boolean))];
}

function groupEntry(resources: readonly ResourceInfo[], name: string): object {
  const versions = versionsOf(resources, name).map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions, preferredVersion: versions[0] };
}

export function groupList(resources: readonly ResourceInfo[]): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupNames(resources).map((n) => groupEntry(resources, n)) };
}

export function apiGroup(resources: readonly ResourceInfo[], name: string): object | undefined {
  if (!resources.some((r) => r.group === name)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(resources, name) };
}

// ---- aggregated discovery (apidiscovery.k8s.io) ----

/** The aggregated document versions served; kubectl 1.27–1.29 ask for v2beta1, 1.30+ for v2. */
export type AggregatedVersion = 'v2' | 'v2beta1';

/**
 * One resource as APIResourceDiscovery. Its responseKind carries the legacy
 * entry's group and version, which are empty unless they differ from the
 * resource's own (upstream ConvertGroupVersionIntoToDiscovery).
 */
function resourceDiscovery(info: ResourceInfo): object {
  const out: Record<string, unknown> = {
    resource: info.resource,
    responseKind: { group: '', version: '', kind: info.kind },
    scope: info.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: info.singular,
    verbs: [...info.verbs],
  };
  if (info.shortNames.length) out.shortNames = [...info.shortNames];
  if (info.categories.length) out.categories = [...info.categories];
  const subs = servedSubresources(info).map((s) => {
    const d = SUBRESOURCES[s]!;
    return { subresource: s, responseKind: { group: d.group ?? '', version: d.version ?? '', kind: subresourceKind(info, s) }, verbs: [...d.verbs] };
  });
  if (subs.length) out.subresources = subs;
  return out;
}

function groupDiscovery(resources: readonly ResourceInfo[], group: string): object {
  const versions = versionsOf(resources, group).map((version) => ({
    version,
    resources: resources.filter((r) => r.group === group && r.version === version).map(resourceDiscovery),
    freshness: 'Current',
  }));
  const metadata: Record<string, unknown> = { creationTimestamp: null };
  if (group) metadata.name = group;
  return { metadata, versions };
}

/** An aggregated document and its ETag: the upper-case hex SHA-512 of its JSON, quoted (upstream calculateETag). */
export interface AggregatedDocument {
  body: string;
  etag: string;
  contentType: string;
}

/** `/api` (legacy: the core group) or `/apis` (every named group) as an APIGroupDiscoveryList. */
export function aggregatedDiscovery(resources: readonly ResourceInfo[], legacy: boolean, version: AggregatedVersion): AggregatedDocument {
  const groups = legacy ? (resources.some((r) => r.group === '') ? [''] : []) : groupNames(resources);
  const body = JSON.stringify({
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => groupDiscovery(resources, g)),
  });
  return {
    body,
    etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
    contentType: `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`,
  };
}
