// Writable host mounts (hostPath and persistent volumes) as bind mounts
// behave for what a container writes: the container's filesystem is in
// memory (containerfs.ts) and starts with a copy of the mount (mounts.ts);
// every write under a writable mount's path is done to the host directory
// too, so the data outlives the container and the pod, as on a node.
// Projected volumes (configMap, secret, ...) and read-only mounts are not
// written through: the kubelet owns those files.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import type { Mount } from './mounts.js';

/** Reads a file or lists a directory of the container, to copy it to the host. */
export interface ContainerReader {
  isDirectory(path: string): Promise<boolean>;
  readBytes(path: string): Promise<Uint8Array>;
  list(path: string): Promise<string[]>;
}

export class WriteThrough {
  private readonly mounts: { containerPath: string; hostPath: string }[];

  constructor(
    mounts: readonly Mount[],
    private readonly warn: (msg: string, fields?: Record<string, unknown>) => void = () => {},
  ) {
    // The longest mount path first: a nested mount wins over its parent.
    this.mounts = mounts
      .filter((m) => m.hostPath && m.containerPath && !m.readonly)
      .map((m) => ({ containerPath: posix.normalize(m.containerPath).replace(/\/+$/, '') || '/', hostPath: m.hostPath }))
      .sort((a, b) => b.containerPath.length - a.containerPath.length);
  }

  get empty(): boolean {
    return this.mounts.length === 0;
  }

  /** The host path a container path lands on, or undefined outside writable mounts. */
  hostPathOf(path: string): string | undefined {
    if (!path.startsWith('/')) return undefined;
    const p = posix.normalize(path);
    for (const m of this.mounts) {
      if (p === m.containerPath) return m.hostPath;
      if (p.startsWith(`${m.containerPath}/`)) return m.hostPath + p.slice(m.containerPath.length);
    }
    return undefined;
  }

  /** Copies the container's file or directory at `path` to the host (a write, append, cp or mv target). */
  async copyOut(path: string, fs: ContainerReader): Promise<void> {
    const host = this.hostPathOf(path);
    if (!host) return;
    await this.guard(path, async () => {
      if (await fs.isDirectory(path)) {
        mkdirSync(host, { recursive: true });
        for (const name of await fs.list(path)) await this.copyOut(`${path.replace(/\/+$/, '')}/${name}`, fs);
        return;
      }
      mkdirSync(dirname(host), { recursive: true });
      writeFileSync(host, await fs.readBytes(path));
    });
  }

  mkdir(path: string): Promise<void> {
    const host = this.hostPathOf(path);
    return host ? this.guard(path, () => void mkdirSync(host, { recursive: true })) : Promise.resolve();
  }

  rm(path: string): Promise<void> {
    const host = this.hostPathOf(path);
    // Removing the mount point itself leaves the host directory (a mount point cannot be removed): only its contents go.
    if (!host) return Promise.resolve();
    return this.guard(path, () => {
      if (this.mounts.some((m) => m.hostPath === host)) return;
      rmSync(host, { recursive: true, force: true });
    });
  }

  /** A failed host write is logged, never fatal to the container (its own copy is written). */
  private async guard(path: string, fn: () => void | Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.warn('cannot write through to the host mount', { path, err: (err as Error).message });
    }
  }
}
