// projected volumes (upstream pkg/volume/projected): configMap, secret,
// downwardAPI and serviceAccountToken sources merged into one directory.

import type { Pod, Volume } from '@kubelab/api';
import { writeAtomically, type Payload } from './atomic-writer.js';
import { PLUGIN, podVolumeDir } from './paths.js';
import { DEFAULT_MODE, configMapPayload, downwardAPIPayload, secretPayload } from './payload.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';
import { aggregate, volumeConfigMap, volumeSecret } from './sources.js';

/**
 * kubelab has no token issuer (no TokenRequest API): the serviceAccountToken
 * source gets this placeholder, so paths and modes match upstream while
 * nothing pretends to be a credential the apiserver would accept.
 */
export const PLACEHOLDER_TOKEN = 'kubelab-placeholder-token: kubelab issues no service account tokens (no TokenRequest API)\n';

/** All sources' files; a failing source is skipped and its error reported together (upstream collectData). */
export async function projectedPayload(host: VolumeHost, pod: Pod, v: Volume): Promise<Payload> {
  const src = v.projected!;
  const ns = pod.metadata.namespace ?? 'default';
  const mode = src.defaultMode ?? DEFAULT_MODE;
  const out: Payload = new Map();
  const errs: Error[] = [];
  for (const s of src.sources ?? []) {
    try {
      let part: Payload | undefined;
      if (s.configMap) {
        const optional = s.configMap.optional === true;
        const cm = await volumeConfigMap(host.sources, ns, s.configMap.name ?? '', optional);
        part = configMapPayload(s.configMap.items, cm, mode, optional);
      } else if (s.secret) {
        const optional = s.secret.optional === true;
        const secret = await volumeSecret(host.sources, ns, s.secret.name ?? '', optional);
        part = secretPayload(s.secret.items, secret, mode, optional);
      } else if (s.downwardAPI) {
        part = downwardAPIPayload(s.downwardAPI.items, pod, mode, host.allocatable());
      } else if (s.serviceAccountToken) {
        part = new Map([[s.serviceAccountToken.path, { data: Buffer.from(PLACEHOLDER_TOKEN), mode }]]);
      }
      for (const [k, f] of part ?? []) out.set(k, f);
    } catch (e) {
      errs.push(e as Error);
    }
  }
  const err = aggregate(errs);
  if (err) throw err;
  return out;
}

export const projectedPlugin = {
  name: PLUGIN.projected,
  readOnly: true,
  requiresRemount: true,
  canSupport: (v: Volume) => v.projected !== undefined,
  path: (host: VolumeHost, pod: Pod, v: Volume) => podVolumeDir(host.rootDir, pod.metadata.uid ?? '', PLUGIN.projected, v.name),
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const payload = await projectedPayload(host, pod, v);
    writeAtomically(projectedPlugin.path(host, pod, v), payload, `pod ${pod.metadata.namespace}/${pod.metadata.name} volume ${v.name}`, host.now());
  },
} satisfies VolumePlugin;
