// What to do with one default role or binding given what is stored
// (upstream: pkg/registry/rbac/reconciliation computeReconciledRole and
// computeReconciledRoleBinding, as the rbac/bootstrap-roles post-start hook
// runs them: confirm, never remove). Missing: create it. Present: keep what
// the cluster's owner added and add what is missing: labels and annotations
// (theirs win), the broken-down rules it no longer covers, aggregation
// selectors, subjects; a changed roleRef means recreate. An object annotated
// `rbac.authorization.kubernetes.io/autoupdate: "false"` is left alone.

import { ANNOTATION_AUTOUPDATE, semanticJson, type ClusterRole, type ClusterRoleBinding, type KubeObject, type Role, type RoleBinding, type Subject } from '@kubelab/api';
import { covers } from '../covers.js';

export type Reconciliation<T> = { op: 'none' } | { op: 'protected' } | { op: 'create' | 'update' | 'recreate'; obj: T };

const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
const same = (a: unknown, b: unknown): boolean => semanticJson(a) === semanticJson(b);

/** Upstream merge(expected, existing): existing values win. */
const mergeMaps = (expected: Record<string, string> | undefined, existing: Record<string, string> | undefined) => ({ ...(expected ?? {}), ...(existing ?? {}) });

/** Labels and annotations merged onto `out`; whether they changed. */
function mergeMeta(out: KubeObject, expected: KubeObject, existing: KubeObject): boolean {
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  let changed = false;
  if (!same(labels, existing.metadata.labels ?? {})) {
    out.metadata.labels = labels;
    changed = true;
  }
  if (!same(annotations, existing.metadata.annotations ?? {})) {
    out.metadata.annotations = annotations;
    changed = true;
  }
  return changed;
}

const isProtected = (o: KubeObject): boolean => o.metadata.annotations?.[ANNOTATION_AUTOUPDATE] === 'false';

function decide<T extends KubeObject>(obj: T, existing: T, op: 'none' | 'update' | 'recreate'): Reconciliation<T> {
  if (op === 'none') return { op };
  if (isProtected(existing)) return { op: 'protected' };
  return { op, obj };
}

export function reconcileRole<T extends Role | ClusterRole>(expected: T, existing: T | undefined): Reconciliation<T> {
  if (!existing) return { op: 'create', obj: clone(expected) };
  const out = clone(existing);
  let changed = mergeMeta(out, expected, existing);
  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length > 0) {
    out.rules = [...(out.rules ?? []), ...missing];
    changed = true;
  }
  const want = (expected as ClusterRole).aggregationRule?.clusterRoleSelectors;
  if (want) {
    const have = (existing as ClusterRole).aggregationRule?.clusterRoleSelectors ?? [];
    const missingSelectors = want.filter((w) => !have.some((h) => same(h, w)));
    if (missingSelectors.length > 0) {
      (out as ClusterRole).aggregationRule = { ...((out as ClusterRole).aggregationRule ?? {}), clusterRoleSelectors: [...have, ...missingSelectors] };
      changed = true;
    }
  }
  return decide(out, existing, changed ? 'update' : 'none');
}

const subjectEquals = (a: Subject, b: Subject): boolean => a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

export function reconcileBinding<T extends RoleBinding | ClusterRoleBinding>(expected: T, existing: T | undefined): Reconciliation<T> {
  if (!existing) return { op: 'create', obj: clone(expected) };
  const out = clone(existing);
  let changed = mergeMeta(out, expected, existing);
  const missing = (expected.subjects ?? []).filter((w) => !(existing.subjects ?? []).some((h) => subjectEquals(h, w)));
  if (missing.length > 0) {
    out.subjects = [...(out.subjects ?? []), ...missing];
    changed = true;
  }
  if (!same(existing.roleRef, expected.roleRef)) {
    // roleRef is immutable: the binding is deleted and created again.
    out.roleRef = clone(expected.roleRef);
    delete out.metadata.resourceVersion;
    delete out.metadata.uid;
    delete out.metadata.creationTimestamp;
    return decide(out, existing, 'recreate');
  }
  return decide(out, existing, changed ? 'update' : 'none');
}
