// The volume plugins by name (upstream VolumePluginMgr): one plugin per
// volume source; a second plugin with the same name is refused.

import type { Volume } from '@kubelab/api';
import { configMapPlugin } from './configmap.js';
import { downwardAPIPlugin } from './downwardapi.js';
import { emptyDirPlugin } from './emptydir.js';
import { hostPathPlugin } from './hostpath.js';
import type { VolumePlugin } from './plugin.js';
import { persistentVolumeClaimPlugin } from './persistentvolumeclaim.js';
import { projectedPlugin } from './projected.js';
import { secretPlugin } from './secret.js';

export class PluginRegistry {
  private readonly plugins = new Map<string, VolumePlugin>();

  constructor(plugins: VolumePlugin[]) {
    for (const p of plugins) {
      if (this.plugins.has(p.name)) throw new Error(`volume plugin ${JSON.stringify(p.name)} was registered more than once`);
      this.plugins.set(p.name, p);
    }
  }

  /** The plugin for a volume; throws the upstream text when none serves it (upstream FindPluginBySpec). */
  find(v: Volume): VolumePlugin {
    const found = [...this.plugins.values()].filter((p) => p.canSupport(v));
    if (found.length === 0) throw new Error(`no volume plugin matched name: ${v.name}`);
    if (found.length > 1) throw new Error(`multiple volume plugins matched: ${found.map((p) => p.name).join(',')}`);
    return found[0]!;
  }
}

export const defaultPlugins = (): PluginRegistry =>
  new PluginRegistry([emptyDirPlugin, configMapPlugin, secretPlugin, downwardAPIPlugin, projectedPlugin, hostPathPlugin, persistentVolumeClaimPlugin]);
