// hostPath volumes (upstream pkg/volume/hostpath): a path of the node passed
// through to the runtime as it is, after the `type` check. In compose the
// check runs in the kubelet's container, the copy in containerd's: only paths
// both share (such as /var/lib/kubelet) look the same to both.

import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import type { Pod, Volume } from '@kubelab/api';
import { PLUGIN } from './paths.js';
import type { VolumeHost, VolumePlugin } from './plugin.js';

/** The `type` check (upstream checkTypeInternal); returns the error text or undefined. */
export function checkHostPathType(path: string, type: string): string | undefined {
  const st = () => {
    try {
      return statSync(path);
    } catch {
      return undefined;
    }
  };
  switch (type) {
    case '':
      return undefined;
    case 'DirectoryOrCreate':
      if (!existsSync(path)) {
        mkdirSync(path, { recursive: true, mode: 0o755 });
        return undefined;
      }
      return st()?.isDirectory() ? undefined : `hostPath type check failed: ${path} is not a directory`;
    case 'Directory':
      return st()?.isDirectory() ? undefined : `hostPath type check failed: ${path} is not a directory`;
    case 'FileOrCreate':
      if (!existsSync(path)) {
        closeSync(openSync(path, 'a', 0o644));
        return undefined;
      }
      return st()?.isFile() ? undefined : `hostPath type check failed: ${path} is not a file`;
    case 'File':
      return st()?.isFile() ? undefined : `hostPath type check failed: ${path} is not a file`;
    case 'Socket':
      return st()?.isSocket() ? undefined : `hostPath type check failed: ${path} is not a socket file`;
    case 'CharDevice':
      return st()?.isCharacterDevice() ? undefined : `hostPath type check failed: ${path} is not a character device`;
    case 'BlockDevice':
      return st()?.isBlockDevice() ? undefined : `hostPath type check failed: ${path} is not a block device`;
    default:
      return `${type} is an invalid volume type`;
  }
}

export const hostPathPlugin = {
  name: PLUGIN.hostPath,
  readOnly: false,
  requiresRemount: false,
  canSupport: (v: Volume) => v.hostPath !== undefined,
  path: (_host: VolumeHost, _pod: Pod, v: Volume) => v.hostPath!.path,
  async setUp(_host: VolumeHost, _pod: Pod, v: Volume) {
    const err = checkHostPathType(v.hostPath!.path, v.hostPath!.type ?? '');
    if (err) throw new Error(err);
  },
} satisfies VolumePlugin;
