// Object helpers the controllers share that @kubelab/api does not ship yet
// (upstream: api/v1/pod util, component-helpers taints and node affinity,
// apimachinery intstr and metav1 controller refs). The lead may move them.

import type {
  IntOrString,
  KubeObject,
  Node,
  NodeCondition,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  OwnerReference,
  Pod,
  PodCondition,
  Taint,
  Toleration,
} from '@kubelab/api';

// ------------------------------------------------------------------ pods

/** podutil.GetPodCondition */
export function getPodCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const c = getPodCondition(pod, 'Ready');
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : Number.NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= now;
}

/** True once the pod has finished (Succeeded or Failed). */
export function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** controller.IsPodActive: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;
}

/** Sum of container restarts (for ActivePods ordering). */
export function podRestarts(pod: Pod): number {
  let n = 0;
  for (const s of pod.status?.containerStatuses ?? []) n += s.restartCount ?? 0;
  return n;
}

// ------------------------------------------------------------------ owners

/** metav1.GetControllerOf */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion set. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

// ------------------------------------------------------------------ intstr

/** intstr.GetScaledValueFromIntOrPercent */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) {
    if (/^\d+$/.test(v)) return Number(v);
    throw new Error(`invalid value for IntOrString: invalid value "${v}": must be an integer or percentage (e.g '5%')`);
  }
  const pct = Number(m[1]);
  const raw = (pct * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}

// ------------------------------------------------------------------ taints

/** Toleration.ToleratesTaint */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  const op = t.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** Same key and effect (Taint.MatchTaint). */
export const taintMatches = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

export function hasTaint(node: Node, taint: Taint): boolean {
  return (node.spec?.taints ?? []).some((t) => taintMatches(t, taint));
}

/** The node condition of a type. */
export function getNodeCondition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

// ------------------------------------------------------------------ node affinity

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const has = value !== undefined;
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(value);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || r.values?.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(r.values[0] ?? '')) return false;
      return r.operator === 'Gt' ? Number(value) > Number(r.values[0]) : Number(value) < Number(r.values[0]);
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields (only metadata.name) match; an empty term matches nothing. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length + fields.length === 0) return false;
  for (const r of exprs) if (!matchRequirement(r, node.metadata.labels?.[r.key])) return false;
  for (const r of fields) if (r.key !== 'metadata.name' || !matchRequirement(r, node.metadata.name)) return false;
  return true;
}

export function matchNodeSelector(sel: NodeSelector, node: Node): boolean {
  return (sel.nodeSelectorTerms ?? []).some((t) => matchNodeSelectorTerm(t, node));
}

/** The scheduler's NodeAffinity filter: nodeSelector and required node affinity. */
export function podMatchesNode(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const req = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !req || matchNodeSelector(req, node);
}

// ------------------------------------------------------------------ misc

/** Milliseconds since epoch of a metav1.Time, or NaN. */
export const parseTime = (s: string | null | undefined): number => (s ? Date.parse(s) : Number.NaN);

/** metav1.Time text for ms since epoch. */
export const formatTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A mutable deep copy of a (possibly frozen) cached object. */
export const clone = <T>(o: T): T => structuredClone(o);
