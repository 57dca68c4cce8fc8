// The object-model hooks the registry needs from @kubelab/api (defaulting,
// validation, selectors, patch). They are looked up at call time so the
// apiserver builds and runs while those modules are still being written; a
// small fallback keeps the semantics sane until they exist.

import * as api from '@kubelab/api';
import { badRequest, convertFieldSelector, StatusError, type FieldError, type FieldSelector, type KubeObject } from '@kubelab/api';

const mod = api as unknown as Record<string, unknown>;

function fn<T extends (...args: never[]) => unknown>(name: string): T | undefined {
  const f = mod[name];
  return typeof f === 'function' ? (f as T) : undefined;
}

/**
 * A defaulting/validation function that trips over a wrongly-typed field
 * (a string where an array belongs) is the client's malformed object, not a
 * server failure: 400 naming the object.
 */
function guarded<T>(what: string, obj: KubeObject, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (StatusError.isInstance(e)) throw e;
    const name = typeof obj?.metadata?.name === 'string' ? obj.metadata.name : '';
    throw badRequest(`${obj?.kind ?? 'object'} "${name}" is malformed (${what} failed: ${(e as Error).message}); check the field types against the API`);
  }
}

/** Upstream defaulting (SetObjectDefaults_*), in place. */
export function setDefaults(obj: KubeObject): void {
  const f = fn<(o: KubeObject) => unknown>('setDefaults');
  if (f) guarded('defaulting', obj, () => f(obj));
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Validation (upstream ValidateXxx / ValidateXxxUpdate, per subresource where a kind has rules for one) as field errors. */
export function validateObject(obj: KubeObject, old?: KubeObject, subresource?: string): FieldError[] {
  const v = fn<(o: KubeObject, old?: KubeObject, subresource?: string) => FieldError[]>('validateObject');
  if (v) return guarded('validation', obj, () => v(obj, old, subresource) ?? []);
  const errs: FieldError[] = [];
  const name = obj.metadata?.name;
  if (!name) errs.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
  else if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'metadata.name',
      badValue: name,
      detail:
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    });
  }
  return errs;
}

/** Selector text → predicate over an object. */
export type ObjectPredicate = (obj: KubeObject) => boolean;

function asPredicate(sel: unknown, arg: (obj: KubeObject) => unknown): ObjectPredicate {
  if (typeof sel === 'function') return (o) => Boolean((sel as (x: unknown) => unknown)(arg(o)));
  const m = (sel as { matches?: (x: unknown) => unknown } | undefined)?.matches;
  if (typeof m === 'function') return (o) => Boolean(m.call(sel, arg(o)));
  throw new Error('selector parser returned neither a function nor a { matches } object');
}

function wrapParse<T>(what: string, text: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (StatusError.isInstance(e)) throw e;
    throw badRequest(`unable to parse requirement: ${what} "${text}": ${(e as Error).message}`);
  }
}

/** Selectable fields of frozen objects (the watch cache's), computed once per object however many watchers match it. */
const fieldsOfFrozen = new WeakMap<KubeObject, Record<string, string>>();

function frozenOnce(fields: (o: KubeObject) => Record<string, string>): (o: KubeObject) => Record<string, string> {
  return (o) => {
    if (!Object.isFrozen(o)) return fields(o);
    let f = fieldsOfFrozen.get(o);
    if (!f) fieldsOfFrozen.set(o, (f = fields(o)));
    return f;
  };
}

/**
 * Compiles label and field selectors once per list/watch. With the kind, every
 * field label goes through its conversion (upstream: ConvertFieldLabel in the
 * list/watch handler): an unsupported one is a 400 in the kind's words.
 */
export function compileSelectors(labelSelector?: string, fieldSelector?: string, kind?: { apiVersion: string; kind: string }): ObjectPredicate | undefined {
  const preds: ObjectPredicate[] = [];
  if (labelSelector && labelSelector.trim() !== '') {
    const p = fn<(s: string) => unknown>('parseLabelSelector');
    const parsed = p ? wrapParse('label selector', labelSelector, () => p(labelSelector)) : fallbackLabelSelector(labelSelector);
    preds.push(asPredicate(parsed, (o) => o.metadata.labels ?? {}));
  }
  if (fieldSelector && fieldSelector.trim() !== '') {
    const p = fn<(s: string) => unknown>('parseFieldSelector');
    const fields = frozenOnce(fn<(o: KubeObject) => Record<string, string>>('objectFields') ?? fallbackFields);
    let parsed = p ? wrapParse('field selector', fieldSelector, () => p(fieldSelector)) : fallbackFieldSelector(fieldSelector);
    if (kind && typeof (parsed as Partial<FieldSelector>).transform === 'function') parsed = convertLabels(kind, parsed as FieldSelector);
    preds.push(asPredicate(parsed, (o) => fields(o)));
  }
  if (preds.length === 0) return undefined;
  if (preds.length === 1) return preds[0];
  return (o) => preds.every((p) => p(o));
}

function convertLabels(kind: { apiVersion: string; kind: string }, sel: FieldSelector): FieldSelector {
  try {
    return convertFieldSelector(kind.apiVersion, kind.kind, sel);
  } catch (e) {
    // Upstream answers the conversion's own text as a BadRequest (`field label not supported: spec.foo`).
    throw badRequest((e as Error).message);
  }
}

type Req = { key: string; op: 'in' | 'notin' | 'exists' | '!exists' | '=' | '!='; values: string[] };

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

function fallbackLabelSelector(text: string): (labels: Record<string, string>) => boolean {
  const reqs: Req[] = splitTopLevel(text).map((part) => {
    let m = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (m) return { key: m[1]!, op: m[2] as 'in' | 'notin', values: m[3]!.split(',').map((v) => v.trim()) };
    m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
    if (m) return { key: m[1]!, op: m[2] === '!=' ? '!=' : '=', values: [m[3]!] };
    if (/^!\S+$/.test(part)) return { key: part.slice(1), op: '!exists', values: [] };
    if (/^[^\s=!()]+$/.test(part)) return { key: part, op: 'exists', values: [] };
    throw badRequest(`unable to parse requirement: found '${part}', expected: in, notin, =, ==, !=, gt, lt`);
  });
  return (labels) =>
    reqs.every((r) => {
      const has = Object.prototype.hasOwnProperty.call(labels, r.key);
      const v = labels[r.key];
      switch (r.op) {
        case 'exists':
          return has;
        case '!exists':
          return !has;
        case '=':
        case 'in':
          return has && r.values.includes(v!);
        case '!=':
        case 'notin':
          return !has || !r.values.includes(v!);
      }
    });
}

function fallbackFieldSelector(text: string): (fields: Record<string, string>) => boolean {
  const reqs = splitTopLevel(text).map((part) => {
    const m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    return { key: m[1]!, neg: m[2] === '!=', value: m[3]! };
  });
  return (fields) => reqs.every((r) => (fields[r.key] === r.value) !== r.neg);
}

function fallbackFields(o: KubeObject): Record<string, string> {
  const f: Record<string, string> = { 'metadata.name': o.metadata.name ?? '' };
  if (o.metadata.namespace !== undefined) f['metadata.namespace'] = o.metadata.namespace;
  const any = o as unknown as { spec?: { nodeName?: string }; status?: { phase?: string } };
  if (o.kind === 'Pod') {
    f['spec.nodeName'] = any.spec?.nodeName ?? '';
    f['status.phase'] = any.status?.phase ?? '';
  }
  return f;
}

export type PatchFn = (patchType: string, original: unknown, patch: unknown) => unknown;

/** applyPatch from @kubelab/api's patch module; merge patch as the fallback. */
export function applyPatch(patchType: string, original: unknown, patch: unknown): unknown {
  const p = fn<PatchFn>('applyPatch');
  if (p) return p(patchType, original, patch);
  if (patchType !== 'application/merge-patch+json') {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 415,
      reason: 'UnsupportedMediaType',
      message: `the body of the request was in an unknown format - accepted media types include: application/merge-patch+json (got ${patchType})`,
    });
  }
  return mergePatch(original, patch);
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
