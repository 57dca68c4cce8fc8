// What an established CustomResourceDefinition serves, read the same way by
// the apiserver (its CR handlers, discovery) and by controllers that walk
// every resource (upstream: apiextensions' helpers and the CRD handler's
// serving info; discovery's view in the namespace controller and the GC).

import type { ResourceInfo } from '../resources.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion } from './v1/types.js';

const ALL_VERBS: ResourceInfo['verbs'] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** The names with upstream's defaults: singular is the lower-case kind, listKind `<Kind>List`. */
export function withDefaultNames(n: CustomResourceDefinitionNames): Required<CustomResourceDefinitionNames> {
  return {
    plural: n.plural,
    singular: n.singular || n.kind.toLowerCase(),
    shortNames: n.shortNames ?? [],
    kind: n.kind,
    listKind: n.listKind || `${n.kind}List`,
    categories: n.categories ?? [],
  };
}

export const storageVersionOf = (crd: CustomResourceDefinition): CustomResourceDefinitionVersion | undefined => crd.spec?.versions?.find((v) => v.storage);

export function conditionOf(crd: CustomResourceDefinition, type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export const isEstablished = (crd: CustomResourceDefinition): boolean => conditionOf(crd, 'Established')?.status === 'True';

/** The resource one served version is, as discovery, storage keys and REST paths read it (names as accepted). */
export function versionResource(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion): ResourceInfo {
  const n = withDefaultNames(crd.status?.acceptedNames?.plural ? crd.status.acceptedNames : crd.spec!.names);
  const subresources: string[] = [];
  if (v.subresources?.status) subresources.push('status');
  if (v.subresources?.scale) subresources.push('scale');
  return {
    group: crd.spec!.group,
    version: v.name,
    resource: n.plural,
    singular: n.singular,
    kind: n.kind,
    listKind: n.listKind,
    namespaced: crd.spec!.scope === 'Namespaced',
    shortNames: [...n.shortNames],
    categories: [...n.categories],
    verbs: [...ALL_VERBS],
    subresources,
  };
}

/** The versions an established CRD serves (none before Established, as upstream's handler answers 404). */
export function servedVersions(crd: CustomResourceDefinition): CustomResourceDefinitionVersion[] {
  if (!crd.spec || !isEstablished(crd)) return [];
  return crd.spec.versions.filter((v) => v.served);
}

/**
 * One resource per established CRD, for controllers that walk every kind (the
 * namespace controller, the garbage collector): the storage version when it
 * is served, else the first served version — any served version reaches the
 * same stored objects.
 */
export function customResourcesOf(crds: Iterable<CustomResourceDefinition>): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const crd of crds) {
    const served = servedVersions(crd);
    const v = served.find((s) => s.storage) ?? served[0];
    if (v) out.push(versionResource(crd, v));
  }
  return out;
}
