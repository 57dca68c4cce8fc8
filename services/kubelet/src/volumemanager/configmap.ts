// configMap volumes (upstream pkg/volume/configmap): the ConfigMap's keys as
// files, written atomically and rewritten when the ConfigMap changes.

import type { Pod, Volume } from '@kubelab/api';
import { writeAtomically } from './atomic-writer.js';
import { PLUGIN, podVolumeDir } from './paths.js';
import { DEFAULT_MODE, configMapPayload } from './payload.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';
import { volumeConfigMap } from './sources.js';

export const configMapPlugin = {
  name: PLUGIN.configMap,
  readOnly: true,
  requiresRemount: true,
  canSupport: (v: Volume) => v.configMap !== undefined,
  path: (host: VolumeHost, pod: Pod, v: Volume) => podVolumeDir(host.rootDir, pod.metadata.uid ?? '', PLUGIN.configMap, v.name),
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const src = v.configMap!;
    const ns = pod.metadata.namespace ?? 'default';
    const optional = src.optional === true;
    const cm = await volumeConfigMap(host.sources, ns, src.name ?? '', optional);
    const payload = configMapPayload(src.items, cm, src.defaultMode ?? DEFAULT_MODE, optional);
    writeAtomically(configMapPlugin.path(host, pod, v), payload, `pod ${ns}/${pod.metadata.name} volume ${v.name}`, host.now());
  },
} satisfies VolumePlugin;
