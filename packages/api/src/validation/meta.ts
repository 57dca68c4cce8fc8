// ObjectMeta, labels, annotations and label-selector validation
// (apimachinery/pkg/api/validation + pkg/apis/meta/v1/validation).
import type { FieldError } from '../meta/status.js';
import type { LabelSelector, ObjectMeta } from '../meta/types.js';
import { child, forbidden, index, invalid, required, tooLong } from './field.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './strings.js';

/** A name validator: (name, prefix) → messages; prefix means generateName (a trailing dash is fine). */
export type NameValidator = (name: string, prefix: boolean) => string[];

const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name);

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** ValidateNamespaceName / ValidateNodeName etc. use these. */
export const validateNamespaceName = nameIsDNSLabel;
/** path.IsValidPathSegmentName: a name usable as one URL path segment (RBAC's names, Ingress backend and class parameter references). */
export const pathSegmentName: NameValidator = (name) => {
  for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
/** TotalAnnotationSizeLimitB: 256 KiB across all annotation keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

const NON_ASCII = /[^\x00-\x7f]/; // eslint-disable-line no-control-regex -- the ASCII range starts at NUL

/** Bytes of s in UTF-8, as TextEncoder would produce them (lone surrogates as U+FFFD), without encoding it. */
export function utf8Length(s: string): number {
  // Most keys and values are ASCII: one native scan instead of a loop over every char (a ConfigMap's data is validated on each write).
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
// The CRD cleanup finalizer is the apiextensions apiserver's own (whose ObjectMeta validation only asks for a qualified name).
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion', 'customresourcecleanup.apiextensions.k8s.io']);

export function validateNonnegativeField(value: number | undefined | null, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string, shown: unknown = newVal): FieldError[] {
  return JSON.stringify(newVal ?? null) === JSON.stringify(oldVal ?? null) ? [] : [invalid(path, shown ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

export function validateDNS1123Label(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(path, value, m));
}

export function validateDNS1123Subdomain(value: string, path: string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(path, value, m));
}

/** ValidateLabelName: one error per IsQualifiedName complaint, at the map's path. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((m) => invalid(path, name, m));
}

/** ValidateLabels: keys and values; errors point at the map (`metadata.labels`). */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(invalid(path, v, m));
  }
  return errs;
}

/** ValidateAnnotations: case-insensitive qualified keys; 256 KiB in total. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, m));
    size += utf8Length(k) + utf8Length(String(v));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

function validateOwnerReferences(meta: ObjectMeta, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of meta.ownerReferences ?? []) {
    const version = (ref.apiVersion ?? '').split('/').pop() ?? '';
    if (!version) errs.push(invalid(child(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(invalid(child(path, 'kind'), ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(invalid(child(path, 'name'), ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(invalid(child(path, 'uid'), ref.uid ?? '', 'uid must not be empty'));
    if (ref.controller) {
      const cur = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(invalid(path, meta.ownerReferences, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

/** ValidateFinalizerName: qualified, and a bare name must be a standard one. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length === 0 && !name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
    errs.push(invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs = (finalizers ?? []).flatMap((f) => validateFinalizerName(f, path));
  if (finalizers?.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** ValidateObjectMeta for create. */
export function validateObjectMeta(meta: ObjectMeta | undefined, requiresNamespace: boolean, nameFn: NameValidator, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  if (m.generateName) for (const msg of nameFn(m.generateName, true)) errs.push(invalid(child(path, 'generateName'), m.generateName, msg));
  if (!m.name) errs.push(required(child(path, 'name'), 'name or generateName is required'));
  else for (const msg of nameFn(m.name, false)) errs.push(invalid(child(path, 'name'), m.name, msg));
  if (requiresNamespace) {
    if (!m.namespace) errs.push(required(child(path, 'namespace')));
    else for (const msg of validateNamespaceName(m.namespace, false)) errs.push(invalid(child(path, 'namespace'), m.namespace, msg));
  } else if (m.namespace) {
    errs.push(forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  // Only the fields set are walked (no path string or empty list per absent field: every write passes here).
  if (m.generation !== undefined) errs.push(...validateNonnegativeField(m.generation, child(path, 'generation')));
  if (m.labels !== undefined) errs.push(...validateLabels(m.labels, child(path, 'labels')));
  if (m.annotations !== undefined) errs.push(...validateAnnotations(m.annotations, child(path, 'annotations')));
  if (m.ownerReferences !== undefined) errs.push(...validateOwnerReferences(m, child(path, 'ownerReferences')));
  if (m.finalizers !== undefined) errs.push(...validateFinalizers(m.finalizers, child(path, 'finalizers')));
  return errs;
}

/** ValidateObjectMetaUpdate: identity fields immutable, resourceVersion present, no new finalizers while deleting. */
export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, old: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  const m = meta ?? {};
  const o = old ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) {
    const before = new Set(o.finalizers ?? []);
    const added = (m.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length) errs.push(forbidden(child(path, 'finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`));
  }
  if (!m.resourceVersion) errs.push(invalid(child(path, 'resourceVersion'), m.resourceVersion ?? '', 'must be specified for an update'));
  if ((m.generation ?? 0) < (o.generation ?? 0)) errs.push(invalid(child(path, 'generation'), m.generation ?? 0, 'must not be decremented'));
  errs.push(...validateImmutableField(m.name ?? '', o.name ?? '', child(path, 'name')));
  errs.push(...validateImmutableField(m.namespace ?? '', o.namespace ?? '', child(path, 'namespace')));
  errs.push(...validateImmutableField(m.uid ?? '', o.uid ?? '', child(path, 'uid')));
  errs.push(...validateImmutableField(m.creationTimestamp ?? null, o.creationTimestamp ?? null, child(path, 'creationTimestamp')));
  errs.push(...validateImmutableField(m.deletionTimestamp ?? null, o.deletionTimestamp ?? null, child(path, 'deletionTimestamp')));
  errs.push(...validateImmutableField(m.deletionGracePeriodSeconds ?? null, o.deletionGracePeriodSeconds ?? null, child(path, 'deletionGracePeriodSeconds')));
  errs.push(...validateLabels(m.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(m.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(m, child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(m.finalizers, child(path, 'finalizers')));
  return errs;
}

/** ValidateLabelSelector (strict label values, as apps/v1 uses it). */
export function validateLabelSelector(sel: LabelSelector | undefined | null, path: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, child(path, 'matchLabels'));
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    const p = index(child(path, 'matchExpressions'), i);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(child(p, 'operator'), expr.operator, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(expr.key, child(p, 'key')));
    values.forEach((v, vi) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(index(child(p, 'values'), vi), v, m));
    });
  });
  return errs;
}
