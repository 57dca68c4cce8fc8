// core/v1 LimitRange validation (ValidateLimitRange): item types, no pod
// defaults, and min ≤ defaultRequest ≤ default ≤ max per resource.
import type { LimitRange } from '../core/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { Quantity } from '../resource/quantity.js';
import { child, forbidden, goValue, index, invalid, key, required } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs = validateObjectMeta(lr.metadata, true, nameIsDNSSubdomain);
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const at = index('spec.limits', i);
    if (!item.type) errs.push(required(child(at, 'type')));
    if (item.type === 'Pod') {
      if (Object.keys(item.default ?? {}).length) errs.push(forbidden(child(at, 'default'), "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length) errs.push(forbidden(child(at, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
    }
    const names = new Set([...Object.keys(item.min ?? {}), ...Object.keys(item.max ?? {}), ...Object.keys(item.default ?? {}), ...Object.keys(item.defaultRequest ?? {})]);
    for (const k of [...names].sort()) {
      const get = (l: Record<string, string> | undefined) => (l?.[k] !== undefined ? Quantity.tryParse(l[k]!) : undefined);
      const [min, max, def, req] = [get(item.min), get(item.max), get(item.default), get(item.defaultRequest)];
      const bad = (field: string, v: Quantity, msg: string) => errs.push(invalid(key(child(at, field), k), goValue(v.toString()), msg));
      if (min && max && min.cmp(max) > 0) bad('min', min, `min value ${min} is greater than max value ${max}`);
      if (req && min && min.cmp(req) > 0) bad('defaultRequest', req, `min value ${min} is greater than default request value ${req}`);
      if (req && max && req.cmp(max) > 0) bad('defaultRequest', req, `default request value ${req} is greater than max value ${max}`);
      if (req && def && req.cmp(def) > 0) bad('defaultRequest', req, `default request value ${req} is greater than default limit value ${def}`);
      if (def && min && min.cmp(def) > 0) bad('default', min, `min value ${min} is greater than default value ${def}`);
      if (def && max && def.cmp(max) > 0) bad('default', max, `default value ${def} is greater than max value ${max}`);
    }
  });
  return errs;
}

export function validateLimitRangeUpdate(lr: LimitRange, old: LimitRange): FieldError[] {
  return [...validateObjectMetaUpdate(lr.metadata, old.metadata), ...validateLimitRange(lr).filter((e) => !e.field.startsWith('metadata.'))];
}
