// A DaemonSet's ControllerRevisions (pkg/controller/daemon/update.go
// constructHistory, snapshot, cleanupHistory): one per pod template, named
// `<ds>-<template hash>` and labelled with the hash its pods carry, so that
// `kubectl rollout history` and `rollout undo` can list and restore them.

import { isAlreadyExists, newControllerRef, type ControllerRevision, type DaemonSet, type Pod } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { chooseUpdateRevision, CONTROLLER_REVISION_HASH_LABEL, equalRevision, newControllerRevision, revisionData, revisionsToDelete } from '../../util/history.js';
import { templateHash } from './decisions.js';

/** snapshot's revision for the DaemonSet's template (its revision number still to be chosen). */
export function daemonSetRevision(ds: DaemonSet): ControllerRevision {
  return newControllerRevision(ds, newControllerRef(ds, 'apps/v1', 'DaemonSet'), ds.spec?.template?.metadata?.labels, revisionData(ds.spec?.template), 0, templateHash(ds));
}

/**
 * constructHistory: the current revision, reused (renumbered as the newest
 * after a rollback) or created; a name taken by other data raises the
 * status's collisionCount and fails the sync, as upstream.
 */
export async function constructHistory(cs: Clientset, ds: DaemonSet, revisions: readonly ControllerRevision[]): Promise<ControllerRevision> {
  const ns = ds.metadata.namespace ?? 'default';
  const client = cs.apps.controllerRevisions(ns);
  const choice = chooseUpdateRevision(revisions, daemonSetRevision(ds));
  if (choice.renumber) return client.update(choice.update);
  if (!choice.create) return choice.update;
  try {
    return await client.create(choice.update);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const existing = await client.get(choice.update.metadata.name ?? '');
    if (equalRevision(existing, choice.update) && existing.metadata.ownerReferences?.some((r) => r.uid === ds.metadata.uid)) return existing;
    const copy = structuredClone(ds);
    copy.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, ...copy.status, collisionCount: (ds.status?.collisionCount ?? 0) + 1 };
    await cs.apps.daemonSets(ns).updateStatus(copy);
    throw err;
  }
}

/** cleanupHistory: revisions whose hash no pod carries and that are not current, beyond revisionHistoryLimit, oldest first. */
export function daemonSetRevisionsToDelete(ds: DaemonSet, revisions: readonly ControllerRevision[], current: ControllerRevision, pods: readonly Pod[]): ControllerRevision[] {
  const liveHashes = new Set(pods.map((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]).filter((h): h is string => !!h));
  const live = new Set(revisions.filter((r) => liveHashes.has(r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '')).map((r) => r.metadata.name ?? ''));
  live.add(current.metadata.name ?? '');
  return revisionsToDelete(revisions, live, ds.spec?.revisionHistoryLimit ?? 10);
}
