// Host-path mounts as copies (the simulated containers have in-memory
// filesystems): a snapshot at start, and the `..data` link the kubelet swaps
// on a projected volume's update (upstream AtomicWriter), which tells a
// running container's copy to be refreshed.

import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';

export interface Mount {
  hostPath: string;
  containerPath: string;
  /** CRI Mount.readonly: never written through to the host. */
  readonly?: boolean;
}

const MOUNT_FILE_LIMIT = 256;
const MOUNT_BYTES_LIMIT = 4 * 1024 * 1024;

/** The target of a projected volume's `..data` link: it changes on every kubelet update. */
export function dataVersion(hostPath: string): string {
  try {
    return readlinkSync(join(hostPath, '..data'));
  } catch {
    return '';
  }
}

/** How often a projected volume's `..data` link is read where the directory cannot be watched. */
export const DATA_LINK_POLL_MS = 1000;

/**
 * Calls `onSwap` when the kubelet may have swapped the `..data` link of a
 * projected volume: on the directory's file-system notifications (a bind
 * mount shows such a swap at once), or every DATA_LINK_POLL_MS where the
 * directory cannot be watched (no inotify watches left). Returns the stop.
 */
export function followDataLink(hostPath: string, onSwap: () => void): () => void {
  try {
    const w = watch(hostPath, { persistent: false }, () => onSwap());
    // The directory going away (the pod's volumes torn down) ends the watch; nothing is left to follow.
    w.on('error', () => w.close());
    return () => w.close();
  } catch {
    const t = setInterval(onSwap, DATA_LINK_POLL_MS);
    t.unref();
    return () => clearInterval(t);
  }
}

/** Whether a mount is a kubelet-projected volume (configMap, secret, downwardAPI, projected): it has a `..data` link. */
export function isProjected(hostPath: string): boolean {
  return existsSync(join(hostPath, '..data'));
}

/** The files of `mounts` as container paths → content, bounded in count and bytes. */
export function copyMounts(mounts: Mount[], warn: (m: string, f?: Record<string, unknown>) => void): Record<string, string> {
  const files: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  const copy = (host: string, inner: string) => {
    if (count >= MOUNT_FILE_LIMIT || bytes >= MOUNT_BYTES_LIMIT) return;
    const st = statSync(host);
    if (st.isDirectory()) {
      for (const name of readdirSync(host)) if (!name.startsWith('..')) copy(join(host, name), `${inner}/${name}`);
    } else if (st.isFile() && st.size <= MOUNT_BYTES_LIMIT - bytes) {
      files[inner] = readFileSync(host, 'utf8');
      count++;
      bytes += st.size;
    }
  };
  for (const m of mounts) {
    if (!m.hostPath || !m.containerPath) continue;
    try {
      if (existsSync(m.hostPath)) copy(m.hostPath, m.containerPath.replace(/\/+$/, ''));
    } catch (err) {
      warn('cannot copy mount', { hostPath: m.hostPath, err: (err as Error).message });
    }
  }
  return files;
}
