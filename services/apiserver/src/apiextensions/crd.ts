// Pure decisions about CustomResourceDefinitions (upstream: apiextensions'
// helpers, the naming controller's names and conditions, the
// establishing controller, the CRD strategy's PrepareForCreate): what a CRD
// serves, its accepted names, its conditions.

import {
  isEstablished,
  storageVersionOf,
  withDefaultNames,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionStatus,
  type ResourceInfo,
} from '@kubelab/api';

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_RESOURCE = 'customresourcedefinitions';
export const CRD_PREFIX = `/registry/${CRD_GROUP}/${CRD_RESOURCE}`;
/** Holds a deleted CRD until its objects are gone (upstream: CustomResourceCleanupFinalizer). */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export const isCrdResource = (info: Pick<ResourceInfo, 'group' | 'resource'>): boolean => info.group === CRD_GROUP && info.resource === CRD_RESOURCE;

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
