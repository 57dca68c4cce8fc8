// What every volume plugin offers the volume manager (upstream
// pkg/volume/plugins.go VolumePlugin + Mounter): which volumes it serves,
// where the volume lives on the node, and SetUp.

import type { Pod, Volume } from '@kubelab/api';
import type { PluginName } from './paths.js';
import type { ServiceAccountTokenSource } from '../token/manager.js';
import type { ObjectSource } from './sources.js';

export interface VolumeHost {
  /** `--root-dir` */
  rootDir: string;
  sources: ObjectSource;
  /** The token manager the projected serviceAccountToken source asks (absent: such a source fails to mount). */
  tokens?: ServiceAccountTokenSource;
  /** Node allocatable, the limit of containers that set none (downward API resourceFieldRef). */
  allocatable(): Record<string, string>;
  now(): Date;
}

export interface VolumePlugin {
  readonly name: PluginName;
  /** Whether the volume's source is this plugin's (upstream CanSupport). */
  canSupport(v: Volume): boolean;
  /** Mounted read-only whatever the volumeMount says (upstream GetAttributes().ReadOnly). */
  readonly readOnly: boolean;
  /** SetUp runs again on every pod sync so the files follow their sources (upstream RequiresRemount). */
  readonly requiresRemount: boolean;
  /** The volume on the node (upstream Mounter.GetPath). */
  path(host: VolumeHost, pod: Pod, v: Volume): string;
  /** Prepares the volume; throws the SetUp error users see in FailedMount. */
  setUp(host: VolumeHost, pod: Pod, v: Volume): Promise<void>;
}
