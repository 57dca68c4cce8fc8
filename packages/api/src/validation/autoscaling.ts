// autoscaling/v2 validation (pkg/apis/autoscaling/validation): the
// HorizontalPodAutoscaler's bounds, target reference, metrics and behavior,
// in upstream's words. Scale-to-zero (the HPAScaleToZero gate, off by
// default) is not served: minReplicas is at least 1.
import type { HorizontalPodAutoscaler, HPAScalingRules, MetricSpec, MetricTarget } from '../autoscaling/v2/types.js';
import type { FieldError } from '../meta/status.js';
import { parseQuantity } from '../resource/quantity.js';
import { child, forbidden, index, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateDNS1123Label, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const MAX_PERIOD_SECONDS = 1800;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** The sources kubelab serves (metrics.k8s.io); the others need a custom or external metrics API. */
const SERVED_SOURCES: Record<string, 'resource' | 'containerResource'> = { Resource: 'resource', ContainerResource: 'containerResource' };

/** path.IsValidPathSegmentName. */
function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  for (const bad of ['/', '%']) if (name.includes(bad)) return [`may not contain '${bad}'`];
  return [];
}

function positive(q: string | undefined, path: string): FieldError[] {
  if (q === undefined) return [];
  try {
    if (parseQuantity(q).sign() === 1) return [];
  } catch {
    // strict decoding refuses a malformed quantity before validation runs
  }
  return [invalid(path, q, 'must be positive')];
}

function validateMetricTarget(t: MetricTarget, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!t.type) errs.push(required(child(path, 'type'), 'must specify a metric target type'));
  if (t.type !== 'Utilization' && t.type !== 'Value' && t.type !== 'AverageValue') errs.push(invalid(child(path, 'type'), t.type, 'must be either Utilization, Value, or AverageValue'));
  errs.push(...positive(t.value, child(path, 'value')), ...positive(t.averageValue, child(path, 'averageValue')));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1) errs.push(invalid(child(path, 'averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateResourceTarget(t: MetricTarget, path: string): FieldError[] {
  const errs = validateMetricTarget(t, child(path, 'target'));
  if (t.averageUtilization === undefined && t.averageValue === undefined) {
    errs.push(required(child(path, 'target', 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (t.averageUtilization !== undefined && t.averageValue !== undefined) {
    errs.push(forbidden(child(path, 'target', 'averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateMetricSpec(m: MetricSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!m.type) errs.push(required(child(path, 'type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(m.type)) errs.push(notSupported(child(path, 'type'), m.type, METRIC_SOURCE_TYPES));
  const present = (['resource', 'containerResource'] as const).filter((f) => m[f] !== undefined);
  if (m.resource && present[0] === 'resource') {
    const p = child(path, 'resource');
    if (!m.resource.name) errs.push(required(child(p, 'name'), 'must specify a resource name'));
    errs.push(...validateResourceTarget(m.resource.target ?? ({} as MetricTarget), p));
  }
  if (m.containerResource && present[0] === 'containerResource') {
    const p = child(path, 'containerResource');
    if (!m.containerResource.name) errs.push(required(child(p, 'name'), 'must specify a resource name'));
    if (!m.containerResource.container) errs.push(required(child(p, 'container'), 'must specify a container'));
    else errs.push(...validateDNS1123Label(m.containerResource.container, child(p, 'container')));
    errs.push(...validateResourceTarget(m.containerResource.target ?? ({} as MetricTarget), p));
  }
  const expected = SERVED_SOURCES[m.type];
  if (expected && m[expected] === undefined) errs.push(required(child(path, expected), 'must populate information for the given metric source'));
  else if (METRIC_SOURCE_TYPES.includes(m.type) && !expected) {
    errs.push(required(child(path, m.type.charAt(0).toLowerCase() + m.type.slice(1)), 'must populate information for the given metric source'));
  }
  if (present.length > 1) for (const f of present) if (f !== expected) errs.push(forbidden(child(path, f), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(r: HPAScalingRules | undefined, path: string): FieldError[] {
  if (!r) return [];
  const errs: FieldError[] = [];
  const w = r.stabilizationWindowSeconds;
  if (w !== undefined && w < 0) errs.push(invalid(child(path, 'stabilizationWindowSeconds'), w, 'must be greater than or equal to zero'));
  if (w !== undefined && w > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(invalid(child(path, 'stabilizationWindowSeconds'), w, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  if (r.selectPolicy !== undefined && !SELECT_POLICIES.includes(r.selectPolicy)) errs.push(notSupported(child(path, 'selectPolicy'), r.selectPolicy, SELECT_POLICIES));
  const policies = child(path, 'policies');
  if (!r.policies?.length) errs.push(required(policies, 'must specify at least one Policy'));
  (r.policies ?? []).forEach((p, i) => {
    const pp = index(policies, i);
    if (!POLICY_TYPES.includes(p.type)) errs.push(notSupported(child(pp, 'type'), p.type, POLICY_TYPES));
    if (!(p.value > 0)) errs.push(invalid(child(pp, 'value'), p.value, 'must be greater than zero'));
    if (!(p.periodSeconds > 0)) errs.push(invalid(child(pp, 'periodSeconds'), p.periodSeconds, 'must be greater than zero'));
    if (p.periodSeconds > MAX_PERIOD_SECONDS) errs.push(invalid(child(pp, 'periodSeconds'), p.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

function validateSpec(hpa: HorizontalPodAutoscaler, minReplicasLowerBound: number): FieldError[] {
  const spec = hpa.spec ?? ({} as NonNullable<HorizontalPodAutoscaler['spec']>);
  const errs: FieldError[] = [];
  const { minReplicas, maxReplicas } = spec;
  if (minReplicas !== undefined && minReplicas < minReplicasLowerBound) errs.push(invalid('spec.minReplicas', minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (!(maxReplicas >= 1)) errs.push(invalid('spec.maxReplicas', maxReplicas ?? 0, 'must be greater than 0'));
  if (minReplicas !== undefined && (maxReplicas ?? 0) < minReplicas) errs.push(invalid('spec.maxReplicas', maxReplicas ?? 0, 'must be greater than or equal to `minReplicas`'));
  const ref = spec.scaleTargetRef ?? { kind: '', name: '' };
  if (!ref.kind) errs.push(required('spec.scaleTargetRef.kind'));
  else for (const msg of pathSegmentErrors(ref.kind)) errs.push(invalid('spec.scaleTargetRef.kind', ref.kind, msg));
  if (!ref.name) errs.push(required('spec.scaleTargetRef.name'));
  else for (const msg of pathSegmentErrors(ref.name)) errs.push(invalid('spec.scaleTargetRef.name', ref.name, msg));
  (spec.metrics ?? []).forEach((m, i) => errs.push(...validateMetricSpec(m, `spec.metrics[${i}]`)));
  errs.push(...validateScalingRules(spec.behavior?.scaleUp, 'spec.behavior.scaleUp'), ...validateScalingRules(spec.behavior?.scaleDown, 'spec.behavior.scaleDown'));
  return errs;
}

export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): FieldError[] {
  return [...validateObjectMeta(hpa.metadata, true, nameIsDNSSubdomain), ...validateSpec(hpa, 1)];
}

export function validateHorizontalPodAutoscalerUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  // An object already at minReplicas 0 may keep it (upstream: the gate's ratchet).
  return [...validateObjectMetaUpdate(hpa.metadata, old.metadata), ...validateSpec(hpa, old.spec?.minReplicas === 0 ? 0 : 1)];
}

export function validateHorizontalPodAutoscalerStatusUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  return [
    ...validateObjectMetaUpdate(hpa.metadata, old.metadata),
    ...validateNonnegativeField(hpa.status?.currentReplicas, 'status.currentReplicas'),
    ...validateNonnegativeField(hpa.status?.desiredReplicas, 'status.desiredReplicas'),
  ];
}
