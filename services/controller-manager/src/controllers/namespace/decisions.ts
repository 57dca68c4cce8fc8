// The namespace controller's status conditions while it empties a
// Terminating namespace (pkg/controller/namespace/deletion), as a pure function.

import { formatTime, type NamespaceCondition } from '@kubelab/api';

export interface Remaining {
  /** resource (e.g. `pods`) → instances left */
  byResource: Map<string, number>;
  /** finalizer → instances carrying it */
  byFinalizer: Map<string, number>;
}

const fmtCounts = (m: Map<string, number>, suffix: (k: string, n: number) => string) =>
  [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => suffix(k, n))
    .join(', ');

/** The five deletion conditions upstream writes, in its order. */
export function deletionConditions(r: Remaining, prev: readonly NamespaceCondition[] | undefined, now: number): NamespaceCondition[] {
  const t = formatTime(now);
  const mk = (type: string, status: 'True' | 'False', reason: string, message: string): NamespaceCondition => {
    const p = prev?.find((c) => c.type === type);
    const same = p && p.status === status && p.reason === reason && p.message === message;
    return { type, status, lastTransitionTime: same && p.lastTransitionTime ? p.lastTransitionTime : t, reason, message };
  };
  const content = r.byResource.size
    ? mk('NamespaceContentRemaining', 'True', 'SomeResourcesRemain', `Some resources are remaining: ${fmtCounts(r.byResource, (k, n) => `${k} has ${n} resource instances`)}`)
    : mk('NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed');
  const finalizers = r.byFinalizer.size
    ? mk(
        'NamespaceFinalizersRemaining',
        'True',
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${fmtCounts(r.byFinalizer, (k, n) => `${k} in ${n} resource instances`)}`,
      )
    : mk('NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished');
  return [
    mk('NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'),
    mk('NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'),
    mk('NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'),
    content,
    finalizers,
  ];
}
