// core/v1 LimitRange: its defaulting (SetDefaults_LimitRangeItem) and the
// checks of the LimitRanger admission plugin (plugin/pkg/admission/limitranger),
// as pure functions over plain objects.
import { Quantity } from '../../resource/quantity.js';
import type { Container, LimitRange, LimitRangeItem, Pod, ResourceList } from './types.js';

/** Container items: a default limit from max, a default request from the default limit, else from min. */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const def = (item.default ??= {});
    const req = (item.defaultRequest ??= {});
    for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
    for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in req)) req[k] = v;
  }
}

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/**
 * mergePodResourceRequirements: the Container items' defaults go into
 * every container that sets none, and the annotation says what was set.
 */
export function applyLimitRangeDefaults(pod: Pod, ranges: readonly LimitRange[]): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const lr of ranges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      Object.assign(requests, item.defaultRequest ?? {});
      Object.assign(limits, item.default ?? {});
    }
  }
  const notes: string[] = [];
  const merge = (c: Container, what: string) => {
    const res = (c.resources ??= {});
    const setLimits = Object.keys(limits).filter((k) => !(k in (res.limits ?? {})));
    const setRequests = Object.keys(requests).filter((k) => !(k in (res.requests ?? {})));
    if (setLimits.length) res.limits = { ...(res.limits ?? {}), ...Object.fromEntries(setLimits.map((k) => [k, limits[k]!])) };
    if (setRequests.length) res.requests = { ...(res.requests ?? {}), ...Object.fromEntries(setRequests.map((k) => [k, requests[k]!])) };
    if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${what} ${c.name}`);
    if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${what} ${c.name}`);
  };
  for (const c of pod.spec?.containers ?? []) merge(c, 'container');
  for (const c of pod.spec?.initContainers ?? []) merge(c, 'init container');
  if (notes.length) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

const q = (s: string | undefined) => (s === undefined ? undefined : Quantity.tryParse(s));

/** minConstraint, maxConstraint and limitRequestRatioConstraint for one object's requests and limits: at most one refusal each. */
function checkItem(item: LimitRangeItem, kind: string, requests: ResourceList, limits: ResourceList): string[] {
  const errs: string[] = [];
  for (const [res, minS] of Object.entries(item.min ?? {})) {
    const min = q(minS)!;
    const req = q(requests[res]);
    const lim = q(limits[res]);
    if (!req) errs.push(`minimum ${res} usage per ${kind} is ${min}.  No request is specified`);
    else if (req.cmp(min) < 0) errs.push(`minimum ${res} usage per ${kind} is ${min}, but request is ${req}`);
    else if (lim && lim.cmp(min) < 0) errs.push(`minimum ${res} usage per ${kind} is ${min}, but limit is ${lim}`);
  }
  for (const [res, maxS] of Object.entries(item.max ?? {})) {
    const max = q(maxS)!;
    const req = q(requests[res]);
    const lim = q(limits[res]);
    if (!lim) errs.push(`maximum ${res} usage per ${kind} is ${max}.  No limit is specified`);
    else if (lim.cmp(max) > 0) errs.push(`maximum ${res} usage per ${kind} is ${max}, but limit is ${lim}`);
    else if (req && req.cmp(max) > 0) errs.push(`maximum ${res} usage per ${kind} is ${max}, but request is ${req}`);
  }
  for (const [res, ratioS] of Object.entries(item.maxLimitRequestRatio ?? {})) {
    const ratio = q(ratioS)!;
    const req = q(requests[res]);
    const lim = q(limits[res]);
    if (!lim) errs.push(`${res} max limit to request ratio per ${kind} is ${ratio}, but no limit is specified`);
    else if (!req || req.isZero()) errs.push(`${res} max limit to request ratio per ${kind} is ${ratio}, but no request is specified or request is 0`);
    else {
      const actual = lim.milliValue() / req.milliValue();
      if (actual > ratio.milliValue() / 1000) errs.push(`${res} max limit to request ratio per ${kind} is ${ratio}, but provided ratio is ${actual.toFixed(6)}`);
    }
  }
  return errs;
}

const sum = (lists: readonly ResourceList[]): ResourceList => {
  const out: Record<string, Quantity> = {};
  for (const l of lists) for (const [k, v] of Object.entries(l)) out[k] = out[k] ? out[k]!.add(q(v) ?? Quantity.zero()) : (q(v) ?? Quantity.zero());
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.toString()]));
};

/** PodValidateLimitFunc: every Container item against each container, every Pod item against the sums; the refusals upstream lists. */
export function limitRangeViolations(pod: Pod, ranges: readonly LimitRange[]): string[] {
  const errs: string[] = [];
  const containers = pod.spec?.containers ?? [];
  for (const lr of ranges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type === 'Container') {
        for (const c of [...containers, ...(pod.spec?.initContainers ?? [])]) errs.push(...checkItem(item, 'Container', c.resources?.requests ?? {}, c.resources?.limits ?? {}));
      } else if (item.type === 'Pod') {
        errs.push(...checkItem(item, 'Pod', sum(containers.map((c) => c.resources?.requests ?? {})), sum(containers.map((c) => c.resources?.limits ?? {}))));
      }
    }
  }
  return errs;
}
