// The strategies of persistent storage (upstream pkg/registry/core
// persistentvolume and persistentvolumeclaim): status is the PV controller's,
// so a create starts it over: a volume Pending since now, a claim Pending.

import { formatTime, type KubeObject, type ResourceInfo } from '@kubelab/api';

type Obj = KubeObject & { status?: Record<string, unknown> };

export const isPersistentVolumes = (info: ResourceInfo): boolean => info.group === '' && info.resource === 'persistentvolumes';
export const isPersistentVolumeClaims = (info: ResourceInfo): boolean => info.group === '' && info.resource === 'persistentvolumeclaims';

export function prepareStorageForCreate(info: ResourceInfo, o: Obj, now: Date = new Date()): void {
  // PersistentVolumeLastPhaseTransitionTime (GA in 1.31): the phase and when it was entered.
  if (isPersistentVolumes(info)) o.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(now.getTime()) };
  // Upstream clears status and defaulting on read says Pending; kubelab stores what readers see.
  else if (isPersistentVolumeClaims(info)) o.status = { phase: 'Pending' };
}

/** A volume's status write that changes its phase stamps the transition (upstream: the PV status strategy). */
export function preparePersistentVolumeStatus(next: Obj, old: Obj, now: Date = new Date()): void {
  const phase = next.status?.phase;
  if (phase !== undefined && phase !== old.status?.phase) next.status = { ...next.status, lastPhaseTransitionTime: formatTime(now.getTime()) };
}
