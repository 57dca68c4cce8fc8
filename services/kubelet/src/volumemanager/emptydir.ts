// emptyDir (upstream pkg/volume/emptydir): a directory that lives as long as
// the pod, shared by its containers. `medium: Memory` would be a tmpfs
// upstream; kubelab keeps it on disk like the default medium.

import { chmodSync, mkdirSync } from 'node:fs';
import type { Pod, Volume } from '@kubelab/api';
import { PLUGIN, podVolumeDir } from './paths.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';

/** Upstream creates emptyDir volumes world-writable. */
const EMPTY_DIR_MODE = 0o777;

export const emptyDirPlugin = {
  name: PLUGIN.emptyDir,
  readOnly: false,
  requiresRemount: false,
  canSupport: (v: Volume) => v.emptyDir !== undefined,
  path: (host: VolumeHost, pod: Pod, v: Volume) => podVolumeDir(host.rootDir, pod.metadata.uid ?? '', PLUGIN.emptyDir, v.name),
  async setUp(host: VolumeHost, pod: Pod, v: Volume) {
    const dir = emptyDirPlugin.path(host, pod, v);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, EMPTY_DIR_MODE);
  },
} satisfies VolumePlugin;
