// Legacy discovery documents (upstream: apiserver/pkg/endpoints/discovery):
// /api, /apis, /apis/<group> and the APIResourceList of each group version,
// with subresources kubectl looks for (pods/eviction for drain,
// deployments/scale for scale).

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
};

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
    const e: APIResource = { name: `${info.resource}/${s}`, singularName: '', namespaced: info.namespaced, kind: d.kind ?? info.kind, verbs: d.verbs };
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
