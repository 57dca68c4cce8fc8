// A container's volumeMounts as CRI mounts (upstream makeMounts in
// kubelet_pods.go): the volume's host path (plus subPath), the mount path,
// and read-only when the mount or the volume plugin says so.

import { existsSync, mkdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Container } from '@kubelab/api';

/** A CRI Mount (runtime.v1 Mount: container_path, host_path, readonly). */
export interface CriMount {
  containerPath: string;
  hostPath: string;
  readonly: boolean;
}

/** A mounted volume as the container side needs it. */
export interface MountedVolume {
  hostPath: string;
  readOnly: boolean;
}

/** Expands `$(VAR)` in subPathExpr; every referenced variable must be set and non-empty (upstream ExpandContainerVolumeMounts). */
export function expandSubPathExpr(expr: string, env: Map<string, string>): string {
  const missing = new Set<string>();
  const out = expr.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    const v = env.get(name!);
    if (!v) missing.add(name!);
    return v ?? '';
  });
  if (missing.size) throw new Error(`missing value for ${[...missing].sort().join(', ')}`);
  return out;
}

/** The subPath of a mount, checked as upstream does before it touches the volume. */
export function resolveSubPath(subPath: string): string {
  if (isAbsolute(subPath)) throw new Error(`error SubPath \`${subPath}\` must not be an absolute path`);
  if (subPath.split('/').includes('..')) throw new Error(`unable to provision SubPath \`${subPath}\`: must not contain '..'`);
  return subPath;
}

/** The container's mounts; creates a missing subPath directory with the volume's mode, as upstream. */
export function makeMounts(c: Container, volumes: Map<string, MountedVolume>, env: Map<string, string>): CriMount[] {
  const out: CriMount[] = [];
  for (const m of c.volumeMounts ?? []) {
    const vol = volumes.get(m.name);
    if (!vol) throw new Error(`cannot find volume "${m.name}" to mount into container "${c.name}"`);
    let subPath = m.subPath ?? '';
    if (m.subPathExpr) subPath = expandSubPathExpr(m.subPathExpr, env);
    let hostPath = vol.hostPath;
    if (subPath) {
      hostPath = join(vol.hostPath, resolveSubPath(subPath));
      if (!existsSync(hostPath)) {
        try {
          mkdirSync(hostPath, { recursive: true, mode: statSync(vol.hostPath).mode & 0o7777 });
        } catch {
          throw new Error(`failed to create subPath directory for volumeMount "${m.name}" of container "${c.name}"`);
        }
      }
    }
    const containerPath = m.mountPath.startsWith('/') ? m.mountPath : `/${m.mountPath}`;
    out.push({ containerPath, hostPath, readonly: m.readOnly === true || vol.readOnly });
  }
  return out;
}
