// An extension apiserver's APIResourceList as the resources discovery lists
// (upstream: the aggregator's discovery manager fetching each APIService's
// group version, merged into /apis and the aggregated documents).

import type { ResourceInfo } from '@kubelab/api';

interface ListedResource {
  name?: string;
  singularName?: string;
  namespaced?: boolean;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** The resources of one group version's APIResourceList (`name/sub` entries become subresources); undefined when it is not one. */
export function resourcesFromList(group: string, version: string, body: unknown): ResourceInfo[] | undefined {
  const list = body as { kind?: string; resources?: ListedResource[] } | null;
  if (!list || typeof list !== 'object' || list.kind !== 'APIResourceList' || !Array.isArray(list.resources)) return undefined;
  const out: ResourceInfo[] = [];
  for (const r of list.resources) {
    if (!r.name || !r.kind || r.name.includes('/')) continue;
    const subs = list.resources.filter((s) => s.name?.startsWith(`${r.name}/`)).map((s) => s.name!.slice(r.name!.length + 1));
    out.push({
      group,
      version,
      resource: r.name,
      singular: r.singularName || r.kind.toLowerCase(),
      kind: r.kind,
      listKind: `${r.kind}List`,
      namespaced: r.namespaced === true,
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      verbs: (r.verbs ?? []) as ResourceInfo['verbs'],
      subresources: subs,
    });
  }
  return out;
}
