// Controller history (pkg/controller/history): ControllerRevisions as
// immutable, numbered snapshots of a workload's pod template, shared by the
// StatefulSet and DaemonSet controllers. A revision's data is the patch
// upstream's getPatch writes: {"spec":{"template":{...,"$patch":"replace"}}},
// which `kubectl rollout undo` applies back onto the workload.

import { semanticJson, type ControllerRevision, type KubeObject, type OwnerReference, type PodTemplateSpec } from '@kubelab/api';
import { fnv32a, safeEncodeString } from './hash.js';

export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

/** getPatch: the template, marked to replace the workload's on apply. */
export function revisionData(template: PodTemplateSpec | undefined): Record<string, unknown> {
  return { spec: { template: { ...structuredClone(template ?? {}), $patch: 'replace' } } };
}

/** The template a revision holds (ApplyRevision, read back). */
export function revisionTemplate(rev: ControllerRevision): PodTemplateSpec {
  const t = structuredClone(((rev.data?.spec as Record<string, unknown> | undefined)?.template ?? {}) as PodTemplateSpec & { $patch?: string });
  delete t.$patch;
  return t;
}

/** HashControllerRevision: FNV-32a over the data (canonical JSON here) and the collision count, safe-encoded. */
export function hashRevisionData(data: unknown, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(semanticJson(data ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}

/** ControllerRevisionName: `<parent>-<hash>`, the parent's name cut so the whole fits 253 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  const p = prefix.length > 223 ? prefix.slice(0, 223) : prefix;
  return `${p}-${hash}`;
}

/**
 * NewControllerRevision: owned by the parent, labelled with its hash, named
 * after it. The StatefulSet hashes the revision's data (HashControllerRevision),
 * the DaemonSet its pod template (ComputeHash), so the caller gives the hash.
 */
export function newControllerRevision(
  parent: KubeObject,
  ref: OwnerReference,
  labels: Record<string, string> | undefined,
  data: Record<string, unknown>,
  revision: number,
  hash: string,
): ControllerRevision {
  const annotations = parent.metadata.annotations ? { annotations: { ...parent.metadata.annotations } } : {};
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(parent.metadata.name ?? '', hash),
      namespace: parent.metadata.namespace ?? 'default',
      labels: { ...(labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ...annotations,
      ownerReferences: [ref],
    },
    data,
    revision,
  };
}

/** EqualRevision: the same data (the hash label is compared first as upstream does, then the data). */
export function equalRevision(a: ControllerRevision, b: ControllerRevision): boolean {
  return semanticJson(a.data ?? {}) === semanticJson(b.data ?? {});
}

/** NextRevision: one past the highest revision number, 1 for the first. */
export function nextRevision(revisions: readonly ControllerRevision[]): number {
  return revisions.reduce((m, r) => Math.max(m, r.revision ?? 0), 0) + 1;
}

/** SortControllerRevisions: by revision number, then creation, then name. */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(
    (a, b) =>
      (a.revision ?? 0) - (b.revision ?? 0) || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
}

/**
 * truncateHistory: the revisions to delete so that at most `limit` revisions
 * not in use (by a pod, or as the current or update revision) remain; the
 * oldest go first.
 */
export function revisionsToDelete(revisions: readonly ControllerRevision[], live: ReadonlySet<string>, limit: number): ControllerRevision[] {
  const history = sortRevisions(revisions).filter((r) => !live.has(r.metadata.name ?? ''));
  const excess = history.length - Math.max(0, limit);
  return excess > 0 ? history.slice(0, excess) : [];
}

export interface RevisionChoice {
  /** The revision matching the current template: found, or to be created. */
  update: ControllerRevision;
  /** Create `update` (none equal exists). */
  create: boolean;
  /** An equal, older revision re-numbered as the newest (a rollback): update it. */
  renumber: boolean;
}

/**
 * The update revision for a template (getStatefulSetRevisions /
 * constructHistory): an existing equal revision is reused, renumbered as the
 * newest if it is not already; otherwise a new one numbered next.
 */
export function chooseUpdateRevision(revisions: readonly ControllerRevision[], candidate: ControllerRevision): RevisionChoice {
  const sorted = sortRevisions(revisions);
  const equal = sorted.filter((r) => equalRevision(r, candidate));
  const latest = sorted[sorted.length - 1];
  if (equal.length === 0) return { update: { ...candidate, revision: nextRevision(sorted) }, create: true, renumber: false };
  const found = equal[equal.length - 1]!;
  if (latest && found.metadata.name === latest.metadata.name) return { update: found, create: false, renumber: false };
  return { update: { ...structuredClone(found), revision: nextRevision(sorted) }, create: false, renumber: true };
}
