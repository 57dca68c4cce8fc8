// secret volumes (upstream pkg/volume/secret): the Secret's keys as files,
// base64-decoded, written atomically and rewritten when the Secret changes.
// Upstream backs them with tmpfs; kubelab writes them under --root-dir.

import type { Pod, Volume } from '@kubelab/api';
import { writeAtomically } from './atomic-writer.js';
import { PLUGIN, podVolumeDir } from './paths.js';
import { DEFAULT_MODE, secretPayload } from './payload.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';
import { volumeSecret } from './sources.js';

export const secretPlugin = {
  name: PLUGIN.secret,
  readOnly: true,
  requiresRemount: true,
  canSupport: (v: Volume) => v.secret !== undefined,
  path: (host: VolumeHost, pod: Pod, v: Volume) => podVolumeDir(host.rootDir, pod.metadata.uid ?? '', PLUGIN.secret, v.name),
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const src = v.secret!;
    const ns = pod.metadata.namespace ?? 'default';
    const optional = src.optional === true;
    const secret = await volumeSecret(host.sources, ns, src.secretName ?? '', optional);
    const payload = secretPayload(src.items, secret, src.defaultMode ?? DEFAULT_MODE, optional);
    writeAtomically(secretPlugin.path(host, pod, v), payload, `pod ${ns}/${pod.metadata.name} volume ${v.name}`, host.now());
  },
} satisfies VolumePlugin;
