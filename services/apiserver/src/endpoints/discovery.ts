// Discovery documents (upstream: apiserver/pkg/endpoints/discovery and its
// aggregated/ package): the legacy /api, /apis, /apis/<group> and the
// APIResourceList of each group version, with subresources kubectl looks for
// (pods/eviction for drain, deployments/scale for scale), and the aggregated
// APIGroupDiscoveryList (apidiscovery.k8s.io v2, v2beta1) that kubectl 1.27+
// asks for first. Resources served at run time (CRDs) appear in all of them.

import { createHash } from 'node:crypto';
import { RESOURCES, apiVersionOf, type ResourceInfo } from '@kubelab/api';

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

/** What each subresource is, as discovery describes it. */
const SUBRESOURCES: Record<string, { kind?: string; group?: string; version?: string; verbs: string[] }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
  binding: { kind: 'Binding', verbs: ['create'] },
  eviction: { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  log: { verbs: ['get'] },
  exec: { kind: 'PodExecOptions', verbs: ['create', 'get'] },
  portforward: { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  finalize: { verbs: ['update'] },
  token: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
  approval: { verbs: ['get', 'patch', 'update'] },
  ephemeralcontainers: { verbs: ['get', 'patch', 'update'] },
  // upstream's ProxyREST serves every method but list/watch; the kind is <Kind>ProxyOptions.
  proxy: { verbs: ['create', 'delete', 'get', 'patch', 'update'] },
};

/** The kind discovery names for a subresource (a proxy's is NodeProxyOptions, PodProxyOptions, ServiceProxyOptions). */
const subresourceKind = (info: ResourceInfo, sub: string): string => SUBRESOURCES[sub]?.kind ?? (sub === 'proxy' ? `${info.kind}ProxyOptions` : info.kind);

/** Subresources the REST handler actually serves. */
export const SERVED_SUBRESOURCES = new Set(Object.keys(SUBRESOURCES));

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
  const subs: APIResource[] = [];
  for (const s of info.subresources) {
    const d = SUBRESOURCES[s];
    if (!d) continue;
    const e: APIResource = { name: `${info.resource}/${s}`, singularName: '', namespaced: info.namespaced, kind: subresourceKind(info, s), verbs: d.verbs };
    if (d.group !== undefined) e.group = d.group;
    if (d.version !== undefined) e.version = d.version;
    subs.push(e);
  }
  return [main, ...subs];
}

/**
 * Every resource discovery lists: the built-in ones, then those served at
 * run time (custom resources), which the REST handler hands in from the
 * registry's runtimeResources().
 */
function served(runtime: readonly ResourceInfo[]): readonly ResourceInfo[] {
  return runtime.length ? [...RESOURCES, ...runtime] : RESOURCES;
}

export function resourceList(group: string, version: string, runtime: readonly ResourceInfo[] = []): object | undefined {
  const infos = served(runtime).filter((r) => r.group === group && r.version === version);
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

function groupEntry(name: string, all: readonly ResourceInfo[]): object {
  const versions = [...new Set(all.filter((r) => r.group === name).map((r) => r.version))].sort(compareVersions).map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions, preferredVersion: versions[0] };
}

export function groupList(runtime: readonly ResourceInfo[] = []): object {
  const all = served(runtime);
  const names = [...new Set(all.map((r) => r.group).filter(Boolean))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: names.map((n) => groupEntry(n, all)) };
}

export function apiGroup(name: string, runtime: readonly ResourceInfo[] = []): object | undefined {
  const all = served(runtime);
  if (!all.some((r) => r.group === name)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(name, all) };
}

/**
 * Kubernetes' version priority (upstream: version.CompareKubeAwareVersionStrings):
 * GA before beta before alpha, higher numbers first, then other names
 * alphabetically. A stable sort keeps the built-in groups' order.
 */
export function compareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
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
  const subs = info.subresources.flatMap((s) => {
    const d = SUBRESOURCES[s];
    return d ? [{ subresource: s, responseKind: { group: d.group ?? '', version: d.version ?? '', kind: subresourceKind(info, s) }, verbs: [...d.verbs] }] : [];
  });
  if (subs.length) out.subresources = subs;
  return out;
}

/** One group with its versions in priority order, as APIGroupDiscovery (the core group has no name). */
function groupDiscovery(all: readonly ResourceInfo[], group: string): object {
  const versions = [...new Set(all.filter((r) => r.group === group).map((r) => r.version))].sort(compareVersions).map((version) => ({
    version,
    resources: all.filter((r) => r.group === group && r.version === version).map(resourceDiscovery),
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
export function aggregatedDiscovery(legacy: boolean, version: AggregatedVersion, runtime: readonly ResourceInfo[] = []): AggregatedDocument {
  const all = served(runtime);
  const groups = legacy ? [''] : [...new Set(all.map((r) => r.group).filter(Boolean))];
  const body = JSON.stringify({
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => groupDiscovery(all, g)),
  });
  return {
    body,
    etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
    contentType: `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`,
  };
}
