// Taint/toleration matching (k8s.io/api/core/v1 Toleration.ToleratesTaint and
// component-helpers' FindMatchingUntoleratedTaint). Kept here until
// @kubelab/api ships tolerationsTolerateTaint; the lead may move it there.

import type { Taint, Toleration } from '@kubelab/api';

/** Whether one toleration tolerates one taint (effect, key, operator, value). */
export function tolerationToleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (tolerationToleratesTaint(t, taint)) return true;
  return false;
}

/** The first taint passing `inclusion` that no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  inclusion: (t: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (const taint of taints) {
    if (!inclusion(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
