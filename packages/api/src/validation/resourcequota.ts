// core/v1 ResourceQuota validation (ValidateResourceQuota, ...Update,
// ...StatusUpdate): quota resource names, non-negative (and for counts,
// integer) quantities, supported and compatible scopes, immutable scopes.
import type { ResourceList, ResourceQuota } from '../core/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { isIntegerResourceName, isScopeValidForResource, isStandardQuotaResourceName, isStandardResourceName, QUOTA_SCOPES } from '../quota/names.js';
import { Quantity } from '../resource/quantity.js';
import { child, goValue, index, invalid, key, notSupported, required } from './field.js';
import { FIELD_IMMUTABLE_ERROR_MSG, IS_NEGATIVE_ERROR_MSG, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { isQualifiedName } from './strings.js';

/** ValidateResourceQuotaResourceName: a qualified name; without a `/`, a standard resource that quota knows. */
function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length) return errs;
  if (!name.includes('/')) {
    if (!isStandardResourceName(name)) return [invalid(path, name, 'must be a standard resource type or fully qualified')];
    if (!isStandardQuotaResourceName(name)) return [invalid(path, name, 'must be a standard resource for quota')];
  }
  return [];
}

/** Names and values of a hard or used list. */
function validateResourceList(list: ResourceList | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, v] of Object.entries(list ?? {})) {
    const p = key(path, name);
    errs.push(...validateResourceName(name, p));
    const q = Quantity.tryParse(v);
    if (!q) continue; // the decoder refuses malformed quantities first
    if (q.sign() < 0) errs.push(invalid(p, q.toString(), IS_NEGATIVE_ERROR_MSG));
    if (isIntegerResourceName(name) && q.milliValue() % 1000 !== 0) errs.push(invalid(p, goValue(q.toString()), 'must be an integer'));
  }
  return errs;
}

const goScopes = (scopes: readonly string[]) => goValue(`[]core.ResourceQuotaScope{${scopes.map((s) => JSON.stringify(s)).join(', ')}}`);

/** validateResourceQuotaScopes: each scope known and valid for every hard resource, no contradicting pair. */
function validateScopes(rq: ResourceQuota): FieldError[] {
  const scopes = rq.spec?.scopes ?? [];
  if (!scopes.length) return [];
  const errs: FieldError[] = [];
  const hard = Object.keys(rq.spec?.hard ?? {}).sort();
  for (const scope of scopes) {
    if (!(QUOTA_SCOPES as readonly string[]).includes(scope)) errs.push(invalid('spec.scopes', goScopes(scopes), 'unsupported scope'));
    for (const k of hard) if (isStandardQuotaResourceName(k) && !isScopeValidForResource(scope, k)) errs.push(invalid('spec.scopes', goScopes(scopes), 'unsupported scope applied to resource'));
  }
  for (const [a, b] of [
    ['BestEffort', 'NotBestEffort'],
    ['Terminating', 'NotTerminating'],
  ] as const) {
    if (scopes.includes(a) && scopes.includes(b)) errs.push(invalid('spec.scopes', goScopes(scopes), 'conflicting scopes'));
  }
  return errs;
}

/** validateScopedResourceSelectorRequirement: known scope names and operators, values as the operator needs. */
function validateScopeSelector(rq: ResourceQuota): FieldError[] {
  const errs: FieldError[] = [];
  (rq.spec?.scopeSelector?.matchExpressions ?? []).forEach((req, i) => {
    const p = index('spec.scopeSelector.matchExpressions', i);
    if (!(QUOTA_SCOPES as readonly string[]).includes(req.scopeName)) errs.push(invalid(child(p, 'scopeName'), req.scopeName, 'unsupported scope'));
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (!values.length) errs.push(required(child(p, 'values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length)
          errs.push(
            invalid(child(p, 'values'), goValue(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"),
          );
        break;
      default:
        errs.push(notSupported(child(p, 'operator'), req.operator, ['DoesNotExist', 'Exists', 'In', 'NotIn']));
    }
  });
  return errs;
}

export function validateResourceQuota(rq: ResourceQuota): FieldError[] {
  return [
    ...validateObjectMeta(rq.metadata, true, nameIsDNSSubdomain),
    ...validateResourceList(rq.spec?.hard, 'spec.hard'),
    ...validateScopes(rq),
    ...validateScopeSelector(rq),
    ...validateResourceList(rq.status?.hard, 'status.hard'),
    ...validateResourceList(rq.status?.used, 'status.used'),
  ];
}

/** ValidateResourceQuotaUpdate: the spec's rules, and scopes may not change. */
export function validateResourceQuotaUpdate(rq: ResourceQuota, old: ResourceQuota): FieldError[] {
  const errs = [...validateObjectMetaUpdate(rq.metadata, old.metadata), ...validateResourceList(rq.spec?.hard, 'spec.hard'), ...validateScopes(rq), ...validateScopeSelector(rq)];
  const next = new Set(rq.spec?.scopes ?? []);
  const prev = new Set(old.spec?.scopes ?? []);
  if (next.size !== prev.size || [...next].some((s) => !prev.has(s))) errs.push(invalid('spec.scopes', goScopes(rq.spec?.scopes ?? []), FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

/** ValidateResourceQuotaStatusUpdate: the status lists' names and values. */
export function validateResourceQuotaStatusUpdate(rq: ResourceQuota, old: ResourceQuota): FieldError[] {
  return [...validateObjectMetaUpdate(rq.metadata, old.metadata), ...validateResourceList(rq.status?.hard, 'status.hard'), ...validateResourceList(rq.status?.used, 'status.used')];
}
