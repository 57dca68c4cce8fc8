// apps/v1 validation (pkg/apis/apps/validation): deployments, replica sets,
// daemon sets, their status updates, and selector immutability under apps/v1.
import type { DaemonSet, DaemonSetStatus, Deployment, DeploymentStatus, ReplicaSet, ReplicaSetStatus } from '../apps/v1/types.js';
import type { PodTemplateSpec } from '../core/v1/types.js';
import { labelSelectorAsSelector, type Selector } from '../labels/selector.js';
import type { FieldError } from '../meta/status.js';
import type { IntOrString, LabelSelector } from '../meta/types.js';
import { validatePodTemplateSpec } from './core.js';
import { child, forbidden, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateImmutableField, validateLabelSelector, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { goLabelSelector } from './util.js';

const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: string): FieldError[] {
  if (typeof v === 'string') return /^[0-9]+%$/.test(v) ? [] : [invalid(path, v, PERCENT_MSG)];
  if (typeof v === 'number') return validateNonnegativeField(v, path);
  return [];
}

/** getIntOrPercentValue: the number with `%` stripped. */
const intOrPercentValue = (v: IntOrString | undefined): number => (typeof v === 'string' ? Number.parseInt(v, 10) || 0 : (v ?? 0));

export function notMoreThan100Percent(v: IntOrString | undefined, path: string): FieldError[] {
  return typeof v === 'string' && v.endsWith('%') && intOrPercentValue(v) > 100 ? [invalid(path, v, 'must not be greater than 100%')] : [];
}

function selectorOf(sel: LabelSelector | undefined, path: string, errs: FieldError[]): Selector | undefined {
  try {
    return labelSelectorAsSelector(sel);
  } catch {
    errs.push(invalid(path, goLabelSelector(sel), 'invalid label selector'));
    return undefined;
  }
}

/** ValidatePodTemplateSpecForReplicaSet: selector matches template labels, restartPolicy Always, no activeDeadlineSeconds. */
function validateTemplateForController(t: PodTemplateSpec | undefined, selector: Selector, path: string, what: string): FieldError[] {
  if (!t) return [required(path)];
  const errs: FieldError[] = [];
  if (!selector.empty() && !selector.matches(t.metadata?.labels ?? {})) {
    errs.push(invalid(child(path, 'metadata', 'labels'), t.metadata?.labels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(t, path));
  const rp = t.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(notSupported(child(path, 'spec', 'restartPolicy'), rp ?? '', ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined && t.spec.activeDeadlineSeconds !== null) {
    errs.push(invalid(child(path, 'spec', 'activeDeadlineSeconds'), t.spec.activeDeadlineSeconds, `activeDeadlineSeconds in ${what} is not Supported`));
  }
  return errs;
}

function validateSelectorPresent(sel: LabelSelector | undefined, path: string, kind: string): FieldError[] {
  if (!sel) return [required(path)];
  const errs = validateLabelSelector(sel, path);
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions?.length ?? 0) === 0) {
    errs.push(invalid(path, goLabelSelector(sel), `empty selector is invalid for ${kind}`));
  }
  return errs;
}

// ---------------------------------------------------------------- deployment

function validateDeploymentSpec(d: Deployment): FieldError[] {
  const spec = d.spec;
  if (!spec) return [required('spec')];
  const errs = validateNonnegativeField(spec.replicas, 'spec.replicas');
  errs.push(...validateSelectorPresent(spec.selector, 'spec.selector', 'deployment'));
  const sel = selectorOf(spec.selector, 'spec.selector', errs);
  if (sel) errs.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'));
  const st = spec.strategy ?? {};
  switch (st.type) {
    case 'Recreate':
      if (st.rollingUpdate) errs.push(forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      const ru = st.rollingUpdate;
      if (!ru) {
        errs.push(required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil'));
        break;
      }
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge'));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(invalid('spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable'));
      break;
    }
    default:
      errs.push(notSupported('spec.strategy', st, ['Recreate', 'RollingUpdate']));
  }
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const pds = spec.progressDeadlineSeconds;
  if (pds !== undefined && pds !== null) {
    errs.push(...validateNonnegativeField(pds, 'spec.progressDeadlineSeconds'));
    if (pds <= (spec.minReadySeconds ?? 0)) errs.push(invalid('spec.progressDeadlineSeconds', pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

export function validateDeployment(d: Deployment): FieldError[] {
  return [...validateObjectMeta(d.metadata, true, nameIsDNSSubdomain), ...validateDeploymentSpec(d)];
}

export function validateDeploymentUpdate(d: Deployment, old: Deployment): FieldError[] {
  return [
    ...validateObjectMetaUpdate(d.metadata, old.metadata),
    ...validateDeploymentSpec(d),
    ...validateImmutableField(d.spec?.selector, old.spec?.selector, 'spec.selector', goLabelSelector(d.spec?.selector)),
  ];
}

function nonNegativeCounts<T extends object>(status: T | undefined, fields: (keyof T & string)[]): FieldError[] {
  return fields.flatMap((f) => validateNonnegativeField(status?.[f] as number | undefined, `status.${f}`));
}

function validateDeploymentStatus(s: DeploymentStatus | undefined): FieldError[] {
  const errs = nonNegativeCounts(s, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount']);
  const r = s?.replicas ?? 0;
  const msg = 'cannot be greater than status.replicas';
  if ((s?.updatedReplicas ?? 0) > r) errs.push(invalid('status.updatedReplicas', s?.updatedReplicas, msg));
  if ((s?.readyReplicas ?? 0) > r) errs.push(invalid('status.readyReplicas', s?.readyReplicas, msg));
  if ((s?.availableReplicas ?? 0) > r) errs.push(invalid('status.availableReplicas', s?.availableReplicas, msg));
  if ((s?.availableReplicas ?? 0) > (s?.readyReplicas ?? 0)) errs.push(invalid('status.availableReplicas', s?.availableReplicas, 'cannot be greater than readyReplicas'));
  return errs;
}

export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs = [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentStatus(d.status)];
  const cc = d.status?.collisionCount;
  const occ = old.status?.collisionCount;
  if (occ !== undefined && occ !== null) {
    if (cc === undefined || cc === null) errs.push(invalid('status.collisionCount', null, 'cannot be decremented'));
    else if (cc < occ) errs.push(invalid('status.collisionCount', cc, 'cannot be decremented'));
  }
  return errs;
}

// ---------------------------------------------------------------- replica set

function validateReplicaSetSpec(rs: ReplicaSet): FieldError[] {
  const spec = rs.spec;
  if (!spec) return [required('spec')];
  const errs = validateNonnegativeField(spec.replicas, 'spec.replicas');
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  // Upstream's message names "deployment" here too.
  errs.push(...validateSelectorPresent(spec.selector, 'spec.selector', 'deployment'));
  const sel = selectorOf(spec.selector, 'spec.selector', errs);
  if (sel) errs.push(...validateTemplateForController(spec.template, sel, 'spec.template', 'ReplicaSet'));
  return errs;
}

export function validateReplicaSet(rs: ReplicaSet): FieldError[] {
  return [...validateObjectMeta(rs.metadata, true, nameIsDNSSubdomain), ...validateReplicaSetSpec(rs)];
}

export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  return [
    ...validateObjectMetaUpdate(rs.metadata, old.metadata),
    ...validateReplicaSetSpec(rs),
    ...validateImmutableField(rs.spec?.selector, old.spec?.selector, 'spec.selector', goLabelSelector(rs.spec?.selector)),
  ];
}

function validateReplicaSetStatus(s: ReplicaSetStatus | undefined): FieldError[] {
  const errs = nonNegativeCounts(s, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']);
  const r = s?.replicas ?? 0;
  const msg = 'cannot be greater than status.replicas';
  if ((s?.fullyLabeledReplicas ?? 0) > r) errs.push(invalid('status.fullyLabeledReplicas', s?.fullyLabeledReplicas, msg));
  if ((s?.readyReplicas ?? 0) > r) errs.push(invalid('status.readyReplicas', s?.readyReplicas, msg));
  if ((s?.availableReplicas ?? 0) > r) errs.push(invalid('status.availableReplicas', s?.availableReplicas, msg));
  if ((s?.availableReplicas ?? 0) > (s?.readyReplicas ?? 0)) errs.push(invalid('status.availableReplicas', s?.availableReplicas, 'cannot be greater than readyReplicas'));
  return errs;
}

export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetStatus(rs.status)];
}

// ---------------------------------------------------------------- daemon set

function validateDaemonSetSpec(ds: DaemonSet): FieldError[] {
  const spec = ds.spec;
  if (!spec) return [required('spec')];
  const errs = validateLabelSelector(spec.selector, 'spec.selector');
  let sel: Selector | undefined;
  try {
    sel = labelSelectorAsSelector(spec.selector);
  } catch {
    sel = undefined;
  }
  if (sel && !sel.matches(spec.template?.metadata?.labels ?? {})) {
    errs.push(invalid('spec.template.metadata.labels', spec.template?.metadata?.labels ?? {}, '`selector` does not match template `labels`'));
  }
  if (spec.selector && Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions?.length ?? 0) === 0) {
    errs.push(invalid('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  const rp = spec.template?.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp ?? '', ['Always']));
  const ads = spec.template?.spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) errs.push(invalid('spec.template.spec.activeDeadlineSeconds', ads, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  const us = spec.updateStrategy ?? {};
  switch (us.type) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      const ru = us.rollingUpdate;
      if (!ru) {
        errs.push(required('spec.updateStrategy.rollingUpdate'));
        break;
      }
      const p = 'spec.updateStrategy.rollingUpdate';
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...notMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`));
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(invalid(`${p}.maxSurge`, ru.maxSurge ?? 0, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default:
      errs.push(notSupported('spec.updateStrategy', us, ['RollingUpdate', 'OnDelete']));
  }
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  return [...validateObjectMeta(ds.metadata, true, nameIsDNSSubdomain), ...validateDaemonSetSpec(ds)];
}

export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  return [
    ...validateObjectMetaUpdate(ds.metadata, old.metadata),
    ...validateDaemonSetSpec(ds),
    ...validateImmutableField(ds.spec?.selector, old.spec?.selector, 'spec.selector', goLabelSelector(ds.spec?.selector)),
  ];
}

function validateDaemonSetStatus(s: DaemonSetStatus | undefined): FieldError[] {
  return nonNegativeCounts(s, [
    'numberMisscheduled',
    'currentNumberScheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ]);
}

export function validateDaemonSetStatusUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  return [...validateObjectMetaUpdate(ds.metadata, old.metadata), ...validateDaemonSetStatus(ds.status)];
}
