// Pod garbage collection decisions (pkg/controller/podgc) as pure functions.

import { isPodTerminal, parseTime, type Pod } from '@kubelab/api';

/** gcTerminated: the oldest terminated pods beyond the threshold (evicted ones first). */
export function terminatedToDelete(pods: readonly Pod[], threshold: number): Pod[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isPodTerminal);
  const n = terminated.length - threshold;
  if (n <= 0) return [];
  const evicted = (p: Pod) => (p.status?.reason === 'Evicted' ? 0 : 1);
  return [...terminated]
    .sort((a, b) => evicted(a) - evicted(b) || parseTime(a.metadata.creationTimestamp) - parseTime(b.metadata.creationTimestamp) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .slice(0, n);
}

/** Nodes pods are bound to that the node cache does not know (gcOrphaned candidates). */
export function missingNodes(pods: readonly Pod[], knownNodes: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const p of pods) {
    const n = p.spec?.nodeName;
    if (n && !knownNodes.has(n)) out.add(n);
  }
  return out;
}

/** gcUnscheduledTerminating: pods being deleted that were never bound. */
export function unscheduledTerminating(pods: readonly Pod[]): Pod[] {
  return pods.filter((p) => p.metadata.deletionTimestamp && !p.spec?.nodeName);
}
