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

export function resourceList(group: string, version: string): object | undefined {
  const infos = RESOURCES.filter((r) => r.group === group && r.version === version);
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

function groupEntry(name: string): object {
  const versions = [...new Set(RESOURCES.filter((r) => r.group === name).map((r) => r.version))].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions, preferredVersion: versions[0] };
}

export function groupList(): object {
  const names = [...new Set(RESOURCES.map((r) => r.group).filter(Boolean))];
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: names.map(groupEntry) };
}

export function apiGroup(name: string): object | undefined {
  if (!RESOURCES.some((r) => r.group === name)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(name) };
}
