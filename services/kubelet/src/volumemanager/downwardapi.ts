// downwardAPI volumes (upstream pkg/volume/downwardapi): pod metadata and
// container resources as files, rewritten when labels or annotations change.

import type { Pod, Volume } from '@kubelab/api';
import { writeAtomically } from './atomic-writer.js';
import { PLUGIN, podVolumeDir } from './paths.js';
import { DEFAULT_MODE, downwardAPIPayload } from './payload.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';

export const downwardAPIPlugin = {
  name: PLUGIN.downwardAPI,
  readOnly: true,
  requiresRemount: true,
  canSupport: (v: Volume) => v.downwardAPI !== undefined,
  path: (host: VolumeHost, pod: Pod, v: Volume) => podVolumeDir(host.rootDir, pod.metadata.uid ?? '', PLUGIN.downwardAPI, v.name),
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const src = v.downwardAPI!;
    const payload = downwardAPIPayload(src.items, pod, src.defaultMode ?? DEFAULT_MODE, host.allocatable());
    writeAtomically(downwardAPIPlugin.path(host, pod, v), payload, `pod ${pod.metadata.namespace}/${pod.metadata.name} volume ${v.name}`, host.now());
  },
} satisfies VolumePlugin;
