// Validation of persistent storage (pkg/apis/core/validation
// ValidatePersistentVolume(Claim)(Update), pkg/apis/storage/validation
// ValidateStorageClass(Update)), with upstream's field paths and texts.
import type { PersistentVolume, PersistentVolumeAccessMode, PersistentVolumeClaim } from '../core/v1/persistentvolume.js';
import type { FieldError } from '../meta/status.js';
import { Quantity } from '../resource/quantity.js';
import type { StorageClass } from '../storage/v1/types.js';
import { child, forbidden, index, invalid, notSupported, required, tooLong } from './field.js';
import { FIELD_IMMUTABLE_ERROR_MSG, nameIsDNSSubdomain, validateImmutableField, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { isQualifiedName } from './strings.js';
import { deepEqual } from './util.js';

const ACCESS_MODES: readonly PersistentVolumeAccessMode[] = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const PV_RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const SC_RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
/** The sources a PV may name; exactly one (PersistentVolumeSource). */
const PV_SOURCES = ['hostPath', 'local', 'nfs', 'csi'] as const;

function validateAccessModes(modes: readonly string[] | undefined, path: string, requiredText: string): FieldError[] {
  if (!modes?.length) return [required(path, requiredText)];
  const errs: FieldError[] = [];
  for (const m of modes) if (!(ACCESS_MODES as readonly string[]).includes(m)) errs.push(notSupported(path, m, ACCESS_MODES));
  // ReadWriteOncePod cannot be combined with any other mode.
  if (modes.includes('ReadWriteOncePod') && modes.length > 1) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** A storage quantity that must be a valid, positive quantity. */
function validateStorage(value: string | undefined, path: string): FieldError[] {
  if (value === undefined) return [required(path, '')];
  const q = Quantity.tryParse(String(value));
  if (!q) return [invalid(path, value, 'must be a valid quantity')];
  if (q.sign() <= 0) return [invalid(path, q.toString(), 'must be greater than zero')];
  return [];
}

function validateVolumeMode(mode: string | undefined, path: string): FieldError[] {
  return mode !== undefined && !VOLUME_MODES.includes(mode) ? [notSupported(path, mode, VOLUME_MODES)] : [];
}

// ---------------------------------------------------------------- PersistentVolume

export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const errs = validateObjectMeta(pv.metadata, false, nameIsDNSSubdomain);
  const spec = pv.spec ?? {};
  const p = 'spec';
  errs.push(...validateAccessModes(spec.accessModes, child(p, 'accessModes'), 'must specify at least 1 access mode'));
  const capacity = spec.capacity ?? {};
  if (!Object.keys(capacity).length) errs.push(required(child(p, 'capacity'), ''));
  for (const k of Object.keys(capacity)) if (k !== 'storage') errs.push(notSupported(`${p}.capacity[${k}]`, k, ['storage']));
  if (capacity.storage !== undefined) errs.push(...validateStorage(capacity.storage, `${p}.capacity[storage]`));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !PV_RECLAIM_POLICIES.includes(policy)) errs.push(notSupported(child(p, 'persistentVolumeReclaimPolicy'), policy, PV_RECLAIM_POLICIES));
  if (spec.storageClassName) for (const m of nameIsDNSSubdomain(spec.storageClassName, false)) errs.push(invalid(child(p, 'storageClassName'), spec.storageClassName, m));
  errs.push(...validateVolumeMode(spec.volumeMode, child(p, 'volumeMode')));
  const sources = PV_SOURCES.filter((s) => spec[s] !== undefined && spec[s] !== null);
  if (!sources.length) errs.push(required(p, 'must specify a volume type'));
  for (const s of sources.slice(1)) errs.push(forbidden(child(p, s), 'may not specify more than 1 volume type'));
  if (spec.hostPath) {
    if (!spec.hostPath.path) errs.push(required(child(p, 'hostPath', 'path'), ''));
    else if (spec.hostPath.path.split('/').includes('..')) errs.push(invalid(child(p, 'hostPath', 'path'), spec.hostPath.path, "must not contain '..'"));
  }
  if (spec.local) {
    if (!spec.local.path) errs.push(required(child(p, 'local', 'path'), ''));
    if (!spec.nodeAffinity) errs.push(required(child(p, 'nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (spec.nodeAffinity && !spec.nodeAffinity.required) errs.push(required(child(p, 'nodeAffinity', 'required'), 'must specify required node constraints'));
  if (spec.nodeAffinity?.required && !spec.nodeAffinity.required.nodeSelectorTerms?.length)
    errs.push(required(child(p, 'nodeAffinity', 'required', 'nodeSelectorTerms'), 'must have at least one node selector term'));
  return errs;
}

export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pv.metadata, old.metadata), ...validatePersistentVolume(pv).filter((e) => !e.field.startsWith('metadata.'))];
  const source = (v: PersistentVolume) => Object.fromEntries(PV_SOURCES.map((s) => [s, v.spec?.[s]]));
  // The volume's source is fixed once created (only its size may grow).
  if (!deepEqual(source(pv), source(old))) errs.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is forbidden.'));
  errs.push(...validateImmutableField(pv.spec?.volumeMode, old.spec?.volumeMode, 'spec.volumeMode'));
  if (old.spec?.nodeAffinity && !deepEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity)) errs.push(invalid('spec.nodeAffinity', pv.spec?.nodeAffinity ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

export function validatePersistentVolumeStatusUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  return validateObjectMetaUpdate(pv.metadata, old.metadata);
}

// ---------------------------------------------------------------- PersistentVolumeClaim

export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  const errs = validateObjectMeta(pvc.metadata, true, nameIsDNSSubdomain);
  const spec = pvc.spec ?? {};
  const p = 'spec';
  errs.push(...validateAccessModes(spec.accessModes, child(p, 'accessModes'), 'at least 1 access mode is required'));
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, child(p, 'selector')));
  errs.push(...validateStorage(spec.resources?.requests?.storage, `${p}.resources[storage]`));
  if (spec.storageClassName) for (const m of nameIsDNSSubdomain(spec.storageClassName, false)) errs.push(invalid(child(p, 'storageClassName'), spec.storageClassName, m));
  errs.push(...validateVolumeMode(spec.volumeMode, child(p, 'volumeMode')));
  return errs;
}

export function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pvc.metadata, old.metadata), ...validatePersistentVolumeClaim(pvc).filter((e) => !e.field.startsWith('metadata.'))];
  const next = structuredClone(pvc.spec ?? {});
  const prev = structuredClone(old.spec ?? {});
  // What may change: volumeName once (binding), a class once when none was set (retroactive default), the requests of a bound claim (expansion).
  if (!prev.volumeName) next.volumeName = prev.volumeName;
  if (prev.storageClassName === undefined) next.storageClassName = prev.storageClassName;
  const bound = old.status?.phase === 'Bound';
  if (bound) next.resources = { ...(next.resources ?? {}), requests: prev.resources?.requests };
  const strip = (s: object) => JSON.parse(JSON.stringify(s)) as unknown;
  if (!deepEqual(strip(next), strip(prev))) errs.push(forbidden('spec', 'spec is immutable after creation except resources.requests for bound claims'));
  if (bound) {
    const n = Quantity.tryParse(String(pvc.spec?.resources?.requests?.storage ?? ''));
    const o = Quantity.tryParse(String(old.spec?.resources?.requests?.storage ?? ''));
    if (n && o && n.cmp(o) < 0) errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  return errs;
}

export function validatePersistentVolumeClaimStatusUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata);
  const modes = pvc.status?.accessModes;
  if (modes?.length) errs.push(...validateAccessModes(modes, 'status.accessModes', ''));
  return errs;
}

// ---------------------------------------------------------------- StorageClass

export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateObjectMeta(sc.metadata, false, nameIsDNSSubdomain);
  if (!sc.provisioner) errs.push(required('provisioner', ''));
  else if (sc.provisioner.length > 63 * 4 + 3) errs.push(tooLong('provisioner', 255));
  else for (const m of isQualifiedName(sc.provisioner.toLowerCase())) errs.push(invalid('provisioner', sc.provisioner, m));
  if (sc.reclaimPolicy !== undefined && !SC_RECLAIM_POLICIES.includes(sc.reclaimPolicy)) errs.push(notSupported('reclaimPolicy', sc.reclaimPolicy, SC_RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined) errs.push(required('volumeBindingMode', ''));
  else if (!BINDING_MODES.includes(sc.volumeBindingMode)) errs.push(notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  (sc.allowedTopologies ?? []).forEach((t, i) => {
    if (!t.matchLabelExpressions?.length) errs.push(required(child(index('allowedTopologies', i), 'matchLabelExpressions'), 'must contain at least one key/value pair'));
  });
  return errs;
}

export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs = [...validateObjectMetaUpdate(sc.metadata, old.metadata), ...validateStorageClass(sc).filter((e) => !e.field.startsWith('metadata.'))];
  if (!deepEqual(sc.parameters ?? {}, old.parameters ?? {})) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
  return errs;
}
