// scheduling.k8s.io/v1 validation (pkg/apis/scheduling/validation): PriorityClass.
import type { PriorityClass } from '../scheduling/v1/types.js';
import { HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_PRIORITY_CLASSES, SYSTEM_PRIORITY_CLASS_PREFIX } from '../scheduling/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { forbidden, notSupported } from './field.js';
import { nameIsDNSSubdomain, validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];

/** IsKnownSystemPriorityClass: the error text when a `system-` class is not one of the two as defined. */
function systemClassError(pc: PriorityClass): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((s) => s.metadata.name === pc.metadata.name);
  if (!known) return `${pc.metadata.name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${pc.metadata.name} PriorityClass must be ${known.value}`;
  if (!!known.globalDefault !== !!pc.globalDefault) return `globalDefault of ${pc.metadata.name} PriorityClass must be ${!!known.globalDefault}`;
  return undefined;
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(pc.metadata, false, nameIsDNSSubdomain);
  if ((pc.metadata.name ?? '').startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const err = systemClassError(pc);
    if (err) errs.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${err}`));
  } else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined && pc.preemptionPolicy !== null && !PREEMPTION_POLICIES.includes(pc.preemptionPolicy)) {
    errs.push(notSupported('preemptionPolicy', pc.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata);
  if (pc.value !== old.value) errs.push(forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy ?? null, old.preemptionPolicy ?? null, 'preemptionPolicy'));
  return errs;
}
