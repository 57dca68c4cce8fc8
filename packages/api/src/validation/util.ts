// Small helpers shared by the validators: semantic deep equality (absent ==
// undefined), Go-style printing of a few structs users see in messages.
import { goStringMap } from '../meta/status.js';
import type { LabelSelector } from '../meta/types.js';
import type { NodeAddress, ServicePort, Taint, Toleration } from '../core/v1/types.js';
import { goValue } from './field.js';

/** Deep equality over JSON values; a property set to undefined equals a missing one. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/** Paths where two JSON values differ, `- path: old` / `+ path: new` lines (a readable stand-in for cmp.Diff). */
export function diffLines(oldV: unknown, newV: unknown, path = ''): string[] {
  if (deepEqual(oldV, newV)) return [];
  const bothObjects = typeof oldV === 'object' && typeof newV === 'object' && oldV !== null && newV !== null && Array.isArray(oldV) === Array.isArray(newV);
  if (!bothObjects) {
    const out: string[] = [];
    if (oldV !== undefined) out.push(`- ${path || '.'}: ${JSON.stringify(oldV)}`);
    if (newV !== undefined) out.push(`+ ${path || '.'}: ${JSON.stringify(newV)}`);
    return out;
  }
  const ao = oldV as Record<string, unknown>;
  const bo = newV as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
  return keys.flatMap((k) => diffLines(ao[k], bo[k], Array.isArray(oldV) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
}

const goStrings = (v: readonly string[] | undefined): string => (v ? `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}` : '[]string(nil)');

/** %#v of a metav1.LabelSelector, as `spec.selector: Invalid value: v1.LabelSelector{...}: field is immutable` shows. */
export function goLabelSelector(s: LabelSelector | undefined | null): { toString(): string } {
  if (!s) return goValue('null');
  const exprs = s.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map((e) => `v1.LabelSelectorRequirement{Key:${JSON.stringify(e.key)}, Operator:${JSON.stringify(e.operator)}, Values:${goStrings(e.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return goValue(`v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`);
}

/** %#v of the (protocol, port) key upstream reports for a duplicate service port. */
export function goServicePortKey(p: Pick<ServicePort, 'protocol' | 'port'>): { toString(): string } {
  return goValue(
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const q = (s: string | undefined): string => JSON.stringify(s ?? '');

/** %#v of a core.Taint (duplicate-taint errors). */
export function goTaint(t: Taint): { toString(): string } {
  const added = t.timeAdded ? `time.Date(${q(t.timeAdded)})` : '(*v1.Time)(nil)';
  return goValue(`core.Taint{Key:${q(t.key)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TimeAdded:${added}}`);
}

/** %#v of a core.Toleration. */
export function goToleration(t: Toleration): { toString(): string } {
  const secs = t.tolerationSeconds === undefined || t.tolerationSeconds === null ? '(*int64)(nil)' : `(*int64)(${t.tolerationSeconds})`;
  return goValue(`core.Toleration{Key:${q(t.key)}, Operator:${q(t.operator)}, Value:${q(t.value)}, Effect:${q(t.effect)}, TolerationSeconds:${secs}}`);
}

/** %#v of a core.NodeAddress. */
export function goNodeAddress(a: NodeAddress): { toString(): string } {
  return goValue(`core.NodeAddress{Type:${q(a.type)}, Address:${q(a.address)}}`);
}
