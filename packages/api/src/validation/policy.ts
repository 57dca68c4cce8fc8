// policy/v1 validation (pkg/apis/policy/validation): PodDisruptionBudget spec and status.
import type { PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../policy/v1/types.js';
import type { FieldError } from '../meta/status.js';
import type { IntOrString } from '../meta/types.js';
import { notMoreThan100Percent, validatePositiveIntOrPercent } from './apps.js';
import { child, duplicate, goValue, index, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateLabelSelector, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

// %#v of a struct prints its pointer fields as addresses; these stand in for them (the text users match is the detail).
const ptr = (type: string, v: unknown, addr: string) => (v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(${addr})`);

/** %#v of policy.PodDisruptionBudgetSpec, as `spec: Invalid value: policy.PodDisruptionBudgetSpec{...}` shows it. */
function goPdbSpec(s: PodDisruptionBudgetSpec): { toString(): string } {
  return goValue(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr('intstr.IntOrString', s.minAvailable, '0xc000a1e0a0')}, Selector:${ptr('v1.LabelSelector', s.selector, '0xc000a1e0c0')}, MaxUnavailable:${ptr('intstr.IntOrString', s.maxUnavailable, '0xc000a1e0e0')}, UnhealthyPodEvictionPolicy:${ptr('policy.UnhealthyPodEvictionPolicyType', s.unhealthyPodEvictionPolicy, '0xc000a1e100')}}`,
  );
}

function validateIntOrPercent(v: IntOrString | undefined, path: string): FieldError[] {
  if (v === undefined || v === null) return [];
  return [...validatePositiveIntOrPercent(v, path), ...notMoreThan100Percent(v, path)];
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec | undefined, path = 'spec'): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  const has = (v: unknown) => v !== undefined && v !== null;
  if (has(s.minAvailable) && has(s.maxUnavailable)) errs.push(invalid(path, goPdbSpec(s), 'minAvailable and maxUnavailable cannot be both set'));
  errs.push(...validateIntOrPercent(s.minAvailable, child(path, 'minAvailable')));
  errs.push(...validateIntOrPercent(s.maxUnavailable, child(path, 'maxUnavailable')));
  errs.push(...validateLabelSelector(s.selector, child(path, 'selector')));
  if (has(s.unhealthyPodEvictionPolicy) && !(UNHEALTHY_POD_EVICTION_POLICIES as readonly string[]).includes(s.unhealthyPodEvictionPolicy!)) {
    errs.push(notSupported(child(path, 'unhealthyPodEvictionPolicy'), s.unhealthyPodEvictionPolicy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  return [...validateObjectMeta(pdb.metadata, true, nameIsDNSSubdomain), ...validatePodDisruptionBudgetSpec(pdb.spec)];
}

export function validatePodDisruptionBudgetUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  return [...validateObjectMetaUpdate(pdb.metadata, old.metadata), ...validatePodDisruptionBudgetSpec(pdb.spec)];
}

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/** metav1 ValidateConditions, as the PDB status update runs it. */
function validateConditions(conds: PodDisruptionBudgetStatus['conditions'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conds ?? []).forEach((c, i) => {
    const at = index(path, i);
    if (!c.type) errs.push(required(child(at, 'type')));
    else if (seen.has(c.type)) errs.push(duplicate(child(at, 'type'), c.type));
    seen.add(c.type);
    if (!CONDITION_STATUSES.includes(c.status)) errs.push(notSupported(child(at, 'status'), c.status, CONDITION_STATUSES));
    errs.push(...validateNonnegativeField(c.observedGeneration, child(at, 'observedGeneration')));
    if (!c.lastTransitionTime) errs.push(required(child(at, 'lastTransitionTime'), 'must be set'));
    if (!c.reason) errs.push(required(child(at, 'reason')));
    else if (!REASON.test(c.reason)) {
      errs.push(
        invalid(
          child(at, 'reason'),
          c.reason,
          "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
        ),
      );
    }
  });
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1: the counts are nonnegative). */
export function validatePodDisruptionBudgetStatusUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  const s = pdb.status ?? ({} as Partial<PodDisruptionBudgetStatus>);
  return [
    ...validateObjectMetaUpdate(pdb.metadata, old.metadata),
    ...validateConditions(s.conditions, 'status.conditions'),
    ...validateNonnegativeField(s.disruptionsAllowed, 'status.disruptionsAllowed'),
    ...validateNonnegativeField(s.currentHealthy, 'status.currentHealthy'),
    ...validateNonnegativeField(s.desiredHealthy, 'status.desiredHealthy'),
    ...validateNonnegativeField(s.expectedPods, 'status.expectedPods'),
  ];
}
