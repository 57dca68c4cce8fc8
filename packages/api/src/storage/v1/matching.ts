// Which volume a claim may bind (k8s.io/component-helpers/storage/volume:
// FindMatchingVolume, CheckVolumeModeMismatches, CheckNodeAffinity): the PV
// controller calls it without a node, the scheduler's VolumeBinding plugin
// with the node it is trying.
import type { Node } from '../../core/v1/types.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../core/v1/persistentvolume.js';
import { matchNodeSelector } from '../../helpers/nodeaffinity.js';
import { labelSelectorAsSelector } from '../../labels/selector.js';
import { Quantity } from '../../resource/quantity.js';
import { claimClass, volumeClass } from './helpers.js';

const storageOf = (v: string | undefined): Quantity | undefined => (v === undefined ? undefined : Quantity.tryParse(String(v)));

/** The claim is the one a volume's claimRef names (by uid when the ref has one). */
export function isVolumeBoundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.namespace !== pvc.metadata.namespace || ref.name !== pvc.metadata.name) return false;
  return !ref.uid || ref.uid === pvc.metadata.uid;
}

/** CheckNodeAffinity: a volume without node affinity is reachable from every node. */
export function volumeFitsNode(pv: PersistentVolume, node: Node): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  return !required || matchNodeSelector(required, node);
}

/** Every mode the claim asks for is one the volume has (CheckAccessModes). */
function hasAccessModes(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const have = new Set(pv.spec?.accessModes ?? []);
  return (pvc.spec?.accessModes ?? []).every((m) => have.has(m));
}

const volumeMode = (m: string | undefined) => m ?? 'Filesystem';

/**
 * FindMatchingVolume: a volume pre-bound to the claim wins if it is big
 * enough; otherwise the smallest unbound volume of the claim's class whose
 * labels, access modes and (with a node) node affinity fit. A delayed
 * (WaitForFirstConsumer) claim is bound by the scheduler, never without a node.
 */
export function findMatchingVolume(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node | undefined,
  excluded: ReadonlySet<string> = new Set(),
  delayBinding = false,
): PersistentVolume | undefined {
  const requested = storageOf(pvc.spec?.resources?.requests?.storage) ?? Quantity.zero();
  const cls = claimClass(pvc);
  const selector = pvc.spec?.selector ? labelSelectorAsSelector(pvc.spec.selector) : undefined;
  let best: { pv: PersistentVolume; size: Quantity } | undefined;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata.name ?? '')) continue;
    const size = storageOf(pv.spec?.capacity?.storage);
    if (!size) continue;
    if (volumeMode(pv.spec?.volumeMode) !== volumeMode(pvc.spec?.volumeMode)) continue;
    const fitsNode = !node || volumeFitsNode(pv, node);
    if (isVolumeBoundToClaim(pv, pvc)) {
      // Pre-bound: this one or none of its kind.
      if (size.cmp(requested) < 0 || volumeClass(pv) !== cls || !fitsNode) continue;
      return pv;
    }
    if (pv.spec?.claimRef || pv.metadata.deletionTimestamp) continue;
    if (pv.status?.phase && pv.status.phase !== 'Available' && pv.status.phase !== 'Pending') continue;
    if (node === undefined && delayBinding) continue;
    if (!fitsNode) continue;
    if (selector && !selector.matches(pv.metadata.labels ?? {})) continue;
    if (volumeClass(pv) !== cls) continue;
    if (!hasAccessModes(pv, pvc)) continue;
    if (size.cmp(requested) < 0) continue;
    if (!best || size.cmp(best.size) < 0) best = { pv, size };
  }
  return best?.pv;
}
