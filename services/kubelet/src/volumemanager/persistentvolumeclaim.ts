// persistentVolumeClaim volumes: the claim is resolved to the volume bound
// to it (upstream desired_state_of_world_populator getPVCExtractPV, with its
// error texts), and that volume's own source is set up: a hostPath or local
// volume is a directory of the node, mounted as it is, so what a pod writes
// there outlives the pod (upstream: the PV's plugin, here the path is
// remembered per pod and volume for the mounts).

import type { PersistentVolume, Pod, Volume } from '@kubelab/api';
import { checkHostPathType } from './hostpath.js';
import { PLUGIN } from './paths.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';

/** The claim's volume, or the error the populator records for the pod. */
export async function resolveClaim(host: VolumeHost, namespace: string, claimName: string): Promise<PersistentVolume> {
  const wrap = (msg: string) => new Error(`error processing PVC ${namespace}/${claimName}: ${msg}`);
  const src = host.sources;
  if (!src.persistentVolumeClaim || !src.persistentVolume) throw wrap('failed to fetch PVC from API server: no client');
  const pvc = await src.persistentVolumeClaim(namespace, claimName);
  if (!pvc) throw wrap(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (pvc.metadata.deletionTimestamp) throw wrap('PVC is being deleted');
  const volumeName = pvc.spec?.volumeName ?? '';
  if (pvc.status?.phase !== 'Bound' || !volumeName) throw wrap('PVC is not bound');
  const pv = await src.persistentVolume(volumeName);
  if (!pv) throw wrap(`failed to fetch PV ${volumeName} from API server: persistentvolumes "${volumeName}" not found`);
  const ref = pv.spec?.claimRef;
  if (!ref) throw wrap(`found PV object ${volumeName} but it has a nil ClaimRef`);
  if (ref.uid !== pvc.metadata.uid)
    throw wrap(`found PV object ${JSON.stringify(volumeName)} but its ClaimRef.UID ${JSON.stringify(ref.uid ?? '')} does not point to claim.UID ${JSON.stringify(pvc.metadata.uid ?? '')}`);
  return pv;
}

/** The node directory of a volume kubelab can mount (hostPath or local). */
export function volumePath(pv: PersistentVolume): string | undefined {
  return pv.spec?.hostPath?.path ?? pv.spec?.local?.path;
}

/** Set-up volumes: `<pod uid>/<volume>` → the directory. Forgotten when the pod's volumes are cleaned up. */
const paths = new Map<string, string>();

export const persistentVolumeClaimPlugin = {
  name: PLUGIN.persistentVolumeClaim,
  readOnly: false,
  requiresRemount: false,
  canSupport: (v: Volume) => v.persistentVolumeClaim !== undefined,
  path: (_host: VolumeHost, pod: Pod, v: Volume) => paths.get(`${pod.metadata.uid}/${v.name}`) ?? '',
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const pv = await resolveClaim(host, pod.metadata.namespace ?? 'default', v.persistentVolumeClaim!.claimName);
    const path = volumePath(pv);
    if (!path) throw new Error(`no volume plugin matched name: ${pv.metadata.name}`);
    if (pv.spec?.hostPath) {
      const err = checkHostPathType(path, pv.spec.hostPath.type ?? '');
      if (err) throw new Error(err);
    } else {
      // A local volume's path must exist on the node (upstream: the local plugin's mount of an existing directory).
      const err = checkHostPathType(path, 'Directory');
      if (err) throw new Error(`path "${path}" does not exist`);
    }
    paths.set(`${pod.metadata.uid}/${v.name}`, path);
  },
  /** Forgets a pod's paths (its volumes were cleaned up). */
  forget(uid: string) {
    for (const k of [...paths.keys()]) if (k.startsWith(`${uid}/`)) paths.delete(k);
  },
} satisfies VolumePlugin & { forget(uid: string): void };
