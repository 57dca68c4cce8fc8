// Pure decisions about CustomResourceDefinitions (upstream: apiextensions'
// helpers, the naming controller's names and conditions, the
// establishing controller, the CRD strategy's PrepareForCreate): what a CRD
// serves, its accepted names, its conditions.

import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  ResourceInfo,
} from '@kubelab/api';

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_RESOURCE = 'customresourcedefinitions';
export const CRD_PREFIX = `/registry/${CRD_GROUP}/${CRD_RESOURCE}`;
/** Holds a deleted CRD until its objects are gone (upstream: CustomResourceCleanupFinalizer). */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export const isCrdResource = (info: Pick<ResourceInfo, 'group' | 'resource'>): boolean => info.group === CRD_GROUP && info.resource === CRD_RESOURCE;

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

/** PrepareForCreate: no status from the client but the storage version recorded (upstream's CRD strategy). */
export function prepareCrdForCreate(o: CustomResourceDefinition): void {
  const storage = storageVersionOf(o)?.name;
  o.status = { storedVersions: storage ? [storage] : [] } as CustomResourceDefinitionStatus;
}

/** PrepareForUpdate of the main resource: status kept, a new storage version added to storedVersions. */
export function prepareCrdForUpdate(next: CustomResourceDefinition, old: CustomResourceDefinition, subresource: string | undefined): void {
  if (subresource) return;
  const storage = storageVersionOf(next)?.name;
  const stored = [...(old.status?.storedVersions ?? [])];
  if (storage && !stored.includes(storage)) stored.push(storage);
  next.status = { ...(old.status ?? {}), storedVersions: stored };
}

/** Sets a condition, keeping its lastTransitionTime when the status stays (upstream SetCRDCondition). */
export function setCondition(status: CustomResourceDefinitionStatus, c: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>, now: string): void {
  const conds = status.conditions ?? [];
  const old = conds.find((x) => x.type === c.type);
  const next: CustomResourceDefinitionCondition = { ...c, lastTransitionTime: old && old.status === c.status ? (old.lastTransitionTime ?? now) : now };
  status.conditions = old ? conds.map((x) => (x.type === c.type ? next : x)) : [...conds, next];
}

/** Upstream's Terminating condition on the first delete of a CRD. */
export function markTerminating(o: CustomResourceDefinition, now: string): void {
  const status = (o.status ??= {});
  setCondition(
    status,
    { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' },
    now,
  );
}

/**
 * A name the CRD asks for that another CRD of its group already has
 * (upstream: the naming controller's conflict checks), or undefined.
 */
export function namesConflict(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): { reason: string; message: string } | undefined {
  const want = withDefaultNames(crd.spec!.names);
  for (const o of others) {
    if (o.metadata.name === crd.metadata.name || o.spec?.group !== crd.spec!.group) continue;
    const has = o.status?.acceptedNames;
    if (!has?.plural) continue;
    const taken = withDefaultNames(has);
    if (taken.plural === want.plural) return { reason: 'PluralConflict', message: `"${want.plural}" is already in use` };
    if (taken.singular === want.singular) return { reason: 'SingularConflict', message: `"${want.singular}" is already in use` };
    const short = want.shortNames.find((s) => taken.shortNames.includes(s));
    if (short) return { reason: 'ShortNamesConflict', message: `"${short}" is already in use` };
    if (taken.kind === want.kind) return { reason: 'KindConflict', message: `"${want.kind}" is already in use` };
    if (taken.listKind === want.listKind) return { reason: 'ListKindConflict', message: `"${want.listKind}" is already in use` };
  }
  return undefined;
}

/**
 * The status the naming and establishing controllers want: accepted names
 * and NamesAccepted, then Established once the names are accepted (kept
 * True once set, as upstream). Terminating is the finalizer's to set.
 */
export function desiredStatus(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[], now: string): CustomResourceDefinitionStatus {
  const status: CustomResourceDefinitionStatus = structuredClone(crd.status ?? {});
  const conflict = namesConflict(crd, others);
  if (conflict) {
    setCondition(status, { type: 'NamesAccepted', status: 'False', ...conflict }, now);
    if (!isEstablished(crd)) setCondition(status, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
    return status;
  }
  status.acceptedNames = withDefaultNames(crd.spec!.names);
  setCondition(status, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, now);
  if (!isEstablished(crd)) setCondition(status, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
  return status;
}
