// ServiceAccount admission: a pod without a service account runs as
// `default` in its namespace. Mirror pods are left as the kubelet wrote them
// (a changed spec would make it delete and recreate the mirror pod), and may
// not reference a service account, secrets or token projections at all.
// Unlike upstream, no kube-api-access projected volume is added: kubelab's
// kubelet cannot project service account tokens.

import { ANNOTATION_CONFIG_MIRROR, forbidden, type Pod, type PodSpec } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';

/** Whether any container, volume or pull secret of the spec names a Secret (podutil.VisitPodSecretNames). */
export function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets?.length ?? 0) > 0) return true;
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    if (c.envFrom?.some((e) => e.secretRef)) return true;
    if (c.env?.some((e) => e.valueFrom?.secretKeyRef)) return true;
  }
  return (spec.volumes ?? []).some((v) => v.secret || v.projected?.sources?.some((s) => s.secret));
}

/** Why a mirror pod may not be created, or undefined (upstream Validate's mirror-pod branch). */
export function mirrorPodViolation(spec: PodSpec): string | undefined {
  if (spec.serviceAccountName) return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(spec)) return 'a mirror pod may not reference secrets';
  if (spec.volumes?.some((v) => v.projected?.sources?.some((s) => s.serviceAccountToken))) {
    return 'a mirror pod may not use ServiceAccountToken volume projections';
  }
  return undefined;
}

export function serviceAccount(): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.info.resource !== 'pods' || a.info.group !== '' || a.subresource || !a.object) return;
      const pod = a.object as Pod;
      const spec = (pod.spec ??= {} as PodSpec);
      if (pod.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] !== undefined) {
        const why = mirrorPodViolation(spec);
        if (why) throw forbidden(a.info, a.name, why);
        return;
      }
      if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT_NAME;
      // The deprecated alias is still written, as upstream's v1 conversion does.
      spec.serviceAccount = spec.serviceAccountName;
    },
  };
}
