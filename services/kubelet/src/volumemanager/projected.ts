// projected volumes (upstream pkg/volume/projected): configMap, secret,
// downwardAPI and serviceAccountToken sources merged into one directory. The
// token is re-read from the token manager on every sync (the plugin requires
// remount), so a refreshed token replaces the file through the atomic writer.

import type { Pod, ServiceAccountTokenProjection, Volume } from '@kubelab/api';
import { writeAtomically, type Payload } from './atomic-writer.js';
import { PLUGIN, podVolumeDir } from './paths.js';
import { DEFAULT_MODE, configMapPayload, downwardAPIPayload, secretPayload } from './payload.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';
import { aggregate, volumeConfigMap, volumeSecret } from './sources.js';

/** The lifetime of a projected token whose source names none (upstream defaulting of ServiceAccountTokenProjection). */
const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

/** A token for the pod's service account, bound to the pod, from the token manager (upstream projected collectData). */
async function serviceAccountTokenPayload(host: VolumeHost, pod: Pod, tp: ServiceAccountTokenProjection, mode: number): Promise<Payload> {
  if (!host.tokens) throw new Error('no token manager: the kubelet cannot request service account tokens');
  const tr = await host.tokens.getServiceAccountToken(pod.metadata.namespace ?? 'default', pod.spec?.serviceAccountName || 'default', {
    metadata: {},
    spec: {
      audiences: tp.audience ? [tp.audience] : [],
      expirationSeconds: tp.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
    },
  });
  return new Map([[tp.path, { data: Buffer.from(tr.status?.token ?? ''), mode }]]);
}

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
        part = await serviceAccountTokenPayload(host, pod, s.serviceAccountToken, mode);
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
