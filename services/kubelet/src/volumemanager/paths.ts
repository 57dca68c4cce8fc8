// Where the kubelet keeps a pod's volumes on disk (upstream kubelet_getters.go
// and the plugins' GetPath): `<root-dir>/pods/<uid>/volumes/<plugin>/<volume>`,
// with the plugin name escaped as upstream's EscapeQualifiedName does
// (`kubernetes.io/configmap` → `kubernetes.io~configmap`).

import { join } from 'node:path';

/** Plugin names as upstream registers them. */
export const PLUGIN = {
  emptyDir: 'kubernetes.io/empty-dir',
  configMap: 'kubernetes.io/configmap',
  secret: 'kubernetes.io/secret',
  downwardAPI: 'kubernetes.io/downward-api',
  projected: 'kubernetes.io/projected',
  hostPath: 'kubernetes.io/host-path',
  persistentVolumeClaim: 'kubernetes.io/persistent-claim',
} as const;

export type PluginName = (typeof PLUGIN)[keyof typeof PLUGIN];

/** `kubernetes.io/configmap` → `kubernetes.io~configmap` (upstream utilstrings.EscapeQualifiedName). */
export function escapeQualifiedName(name: string): string {
  return name.replace(/\//g, '~');
}

/** `<root>/pods` (upstream getPodsDir). */
export function podsDir(root: string): string {
  return join(root, 'pods');
}

/** `<root>/pods/<uid>` (upstream getPodDir). */
export function podDir(root: string, uid: string): string {
  return join(podsDir(root), uid);
}

/** `<root>/pods/<uid>/volumes` (upstream getPodVolumesDir). */
export function podVolumesDir(root: string, uid: string): string {
  return join(podDir(root, uid), 'volumes');
}

/** `<root>/pods/<uid>/volumes/kubernetes.io~configmap/<volume>` (upstream getPodVolumeDir). */
export function podVolumeDir(root: string, uid: string, plugin: PluginName, volume: string): string {
  return join(podVolumesDir(root, uid), escapeQualifiedName(plugin), volume);
}
