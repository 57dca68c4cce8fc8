// apps/v1 StatefulSet and ControllerRevision validation (pkg/apis/apps/validation:
// ValidateStatefulSet*, ValidateControllerRevision*), with upstream's messages.
import type { ControllerRevision, StatefulSet, StatefulSetStatus } from '../apps/v1/types.js';
import type { PodTemplateSpec } from '../core/v1/types.js';
import { labelSelectorAsSelector, type Selector } from '../labels/selector.js';
import type { FieldError } from '../meta/status.js';
import { child, forbidden, invalid, notSupported, required } from './field.js';
import {
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateImmutableField,
  validateLabels,
  validateLabelSelector,
  validateNonnegativeField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './meta.js';
import { deepEqual, goLabelSelector } from './util.js';

const RETENTION = ['Retain', 'Delete'];

/** ValidatePodTemplateSpecForStatefulSet: the selector matches the labels; the pod spec itself is not validated upstream (its volumes name claims yet to exist). */
function validateTemplate(t: PodTemplateSpec | undefined, selector: Selector, path: string): FieldError[] {
  if (!t) return [required(path)];
  const errs: FieldError[] = [];
  const labels = t.metadata?.labels ?? {};
  if (!selector.empty() && !selector.matches(labels)) errs.push(invalid(child(path, 'metadata', 'labels'), labels, '`selector` does not match template `labels`'));
  errs.push(...validateLabels(t.metadata?.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(t.metadata?.annotations, child(path, 'annotations')));
  return errs;
}

function validateSpec(sts: StatefulSet): FieldError[] {
  const spec = sts.spec;
  if (!spec) return [required('spec')];
  const errs: FieldError[] = [];
  switch (spec.podManagementPolicy) {
    case undefined:
    case '' as never:
      errs.push(required('spec.podManagementPolicy'));
      break;
    case 'OrderedReady':
    case 'Parallel':
      break;
    default:
      errs.push(invalid('spec.podManagementPolicy', spec.podManagementPolicy, "must be 'OrderedReady' or 'Parallel'"));
  }
  const us = spec.updateStrategy ?? {};
  switch (us.type) {
    case undefined:
    case '' as never:
      errs.push(required('spec.updateStrategy'));
      break;
    case 'OnDelete':
      if (us.rollingUpdate) errs.push(invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      errs.push(...validateNonnegativeField(us.rollingUpdate?.partition, 'spec.updateStrategy.rollingUpdate.partition'));
      break;
    default:
      errs.push(invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const policy = spec.persistentVolumeClaimRetentionPolicy;
  if (policy) {
    for (const f of ['whenDeleted', 'whenScaled'] as const) {
      if (!RETENTION.includes(policy[f] ?? '')) errs.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, policy[f] ?? '', RETENTION));
    }
  }
  errs.push(...validateNonnegativeField(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (spec.ordinals) errs.push(...validateNonnegativeField(spec.ordinals.start, 'spec.ordinals.start'));
  if (!spec.selector) errs.push(required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    if (Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions?.length ?? 0) === 0) {
      errs.push(invalid('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for statefulset'));
    }
  }
  let selector: Selector | undefined;
  try {
    selector = labelSelectorAsSelector(spec.selector);
  } catch {
    errs.push(invalid('spec.selector', goLabelSelector(spec.selector)));
  }
  if (selector) errs.push(...validateTemplate(spec.template, selector, 'spec.template'));
  const rp = spec.template?.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp ?? '', ['Always']));
  const ads = spec.template?.spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

export function validateStatefulSet(sts: StatefulSet): FieldError[] {
  // ValidateStatefulSetName: a DNS label, since pod names add `-<ordinal>` and pods are hostnames.
  return [...validateObjectMeta(sts.metadata, true, nameIsDNSLabel), ...validateSpec(sts)];
}

/** Fields of the spec an update may change (the rest are immutable). */
const MUTABLE_SPEC = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy'] as const;

export function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = [...validateObjectMetaUpdate(sts.metadata, old.metadata), ...validateSpec(sts)];
  const next: Record<string, unknown> = { ...(sts.spec ?? {}) };
  const prev: Record<string, unknown> = { ...(old.spec ?? {}) };
  for (const f of MUTABLE_SPEC) next[f] = prev[f];
  if (!deepEqual(next, prev)) {
    errs.push(
      forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

function validateStatus(s: StatefulSetStatus | undefined): FieldError[] {
  const count = (f: keyof StatefulSetStatus): number => (s?.[f] as number | undefined) ?? 0;
  const errs = (['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'] as const).flatMap((f) =>
    validateNonnegativeField(s?.[f], `status.${f}`),
  );
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'] as const) {
    if (count(f) > count('replicas')) errs.push(invalid(`status.${f}`, count(f), msg));
  }
  if (count('availableReplicas') > count('readyReplicas')) errs.push(invalid('status.availableReplicas', count('availableReplicas'), 'cannot be greater than status.readyReplicas'));
  return errs;
}

export function validateStatefulSetStatusUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = [...validateStatus(sts.status), ...validateObjectMetaUpdate(sts.metadata, old.metadata)];
  const cc = sts.status?.collisionCount;
  const occ = old.status?.collisionCount;
  if (occ !== undefined && occ !== null && (cc === undefined || cc === null || cc < occ)) errs.push(invalid('status.collisionCount', cc ?? 0, 'cannot be decremented'));
  return errs;
}

export function validateControllerRevision(cr: ControllerRevision): FieldError[] {
  const errs = validateObjectMeta(cr.metadata, true, nameIsDNSSubdomain);
  if (cr.data === undefined || cr.data === null) errs.push(required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(cr.revision, 'revision'));
  return errs;
}

export function validateControllerRevisionUpdate(cr: ControllerRevision, old: ControllerRevision): FieldError[] {
  return [...validateObjectMetaUpdate(cr.metadata, old.metadata), ...validateControllerRevision(cr), ...validateImmutableField(cr.data, old.data, 'data')];
}
