// The registry credentials of a pod's imagePullSecrets for one image
// (upstream kubelet_pods.go getPullSecretsForPod, read through the secret
// manager, + the keyring lookup): a secret that cannot be read is an event
// and a warning, and the pull goes on without it.

import type { Pod } from '@kubelab/api';
import type { Logger } from '@kubelab/component-base';
import { podRef, type Recorder } from '../events.js';
import { getSecret, type ObjectSource } from '../volumemanager/sources.js';
import type { AuthConfig } from '../kuberuntime/cri.js';
import { authFromDockerConfig } from './image-manager.js';

export function pullSecretsFrom(objects: ObjectSource, recorder: Recorder, log: Logger): (pod: Pod, image: string) => Promise<AuthConfig[]> {
  return async (pod, image) => {
    const out: AuthConfig[] = [];
    for (const ref of pod.spec?.imagePullSecrets ?? []) {
      if (!ref.name) continue;
      try {
        const s = await getSecret(objects, pod.metadata.namespace ?? '', ref.name);
        const raw = s.data?.['.dockerconfigjson'] ?? s.data?.['.dockercfg'];
        if (raw) out.push(...authFromDockerConfig(image, Buffer.from(raw, 'base64').toString()));
      } catch (err) {
        recorder.event(podRef(pod), 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${ref.name}); attempting to pull the image may not succeed.`);
        log.warn('Unable to retrieve pull secret', { secret: ref.name, err });
      }
    }
    return out;
  };
}
