// The kubelet's container log manager (upstream pkg/kubelet/logs): every 10 s each
// running container's log over containerLogMaxSize is renamed to `<log>.<YYYYMMDD-hhmmss>`,
// the runtime is told to reopen the path (CRI ReopenContainerLog), older rotated files are
// gzipped, and at most containerLogMaxFiles files (the live one included) are kept.

import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Clock } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import type { Container, RuntimeService } from '../kuberuntime/cri.js';

/** Upstream logMonitorPeriod. */
export const LOG_MONITOR_PERIOD_MS = 10_000;

export interface LogRotatePolicy {
  /** containerLogMaxSize in bytes (default 10Mi). */
  maxSizeBytes: number;
  /** containerLogMaxFiles (default 5, at least 2). */
  maxFiles: number;
}

const two = (n: number) => String(n).padStart(2, '0');
/** Go's "20060102-150405" layout (upstream timestampFormat), UTC. */
export function rotationTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}-${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

/**
 * What to do with a log's rotated files (names `<log>.<stamp>[.gz]`, any order) before the
 * live log is rotated: the oldest beyond maxFiles-2 are removed (one place for the live log,
 * one for the file about to be rotated), and every kept one but the newest is compressed
 * (the runtime may still be writing the newest until it reopened).
 */
export function planRotatedFiles(rotated: string[], maxFiles: number): { remove: string[]; compress: string[] } {
  const sorted = [...rotated].sort();
  const keep = Math.max(maxFiles - 2, 0);
  const remove = sorted.slice(0, Math.max(sorted.length - keep, 0));
  const kept = sorted.slice(remove.length);
  const compress = kept.slice(0, -1).filter((f) => !f.endsWith('.gz'));
  return { remove, compress };
}

/**
 * The log's size; -1 when it cannot be read (gone, or not a file any more). Synchronous: a stat of a
 * local file costs less than the thread pool's round trip, and each running container's is read every 10 s.
 */
function logSize(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? -1;
  } catch {
    return -1;
  }
}

export class ContainerLogManager {
  /**
   * Log paths by container ID: a container's log path never changes, so its ContainerStatus is
   * asked once, not on every pass; entries of containers no longer running are dropped.
   */
  private readonly logPaths = new Map<string, string>();

  constructor(
    private readonly o: {
      rt: Pick<RuntimeService, 'listContainers' | 'containerStatus' | 'reopenContainerLog'>;
      clock: Clock;
      policy: LogRotatePolicy;
      log: Pick<Logger, 'error'>;
      /** The container's log path if the kubelet already knows it (its runtime cache): no ContainerStatus at all. */
      knownLogPath?: (c: Container) => string | undefined;
    },
  ) {}

  /** One pass over the running containers (upstream rotateLogs). */
  async rotateLogs(): Promise<void> {
    const running = (await this.o.rt.listContainers()).filter((c) => c.state === 'CONTAINER_RUNNING');
    const ids = new Set(running.map((c) => c.id));
    for (const id of this.logPaths.keys()) if (!ids.has(id)) this.logPaths.delete(id);
    for (const c of running) {
      try {
        let logPath = this.logPaths.get(c.id);
        if (logPath === undefined) {
          logPath = this.o.knownLogPath?.(c) || (await this.o.rt.containerStatus(c.id)).logPath;
          this.logPaths.set(c.id, logPath);
        }
        if (!logPath) continue;
        const size = logSize(logPath);
        if (size < 0 || size <= this.o.policy.maxSizeBytes) continue;
        await this.rotateLog(c.id, logPath);
      } catch (err) {
        this.o.log.error('Failed to rotate log for container', { err, containerID: c.id });
      }
    }
  }

  private async rotateLog(id: string, logPath: string): Promise<void> {
    const dir = dirname(logPath);
    const base = basename(logPath);
    const names = await readdir(dir);
    // Upstream cleanupUnusedLogs: leftovers of an interrupted compression.
    for (const n of names) if (n.startsWith(`${base}.`) && n.endsWith('.tmp')) await unlink(join(dir, n)).catch(() => {});
    const rotated = names.filter((n) => n.startsWith(`${base}.`) && !n.endsWith('.tmp'));
    const plan = planRotatedFiles(rotated, this.o.policy.maxFiles);
    for (const n of plan.remove) await unlink(join(dir, n)).catch(() => {});
    for (const n of plan.compress) await compress(join(dir, n));
    const target = `${logPath}.${rotationTimestamp(this.o.clock.now())}`;
    await rename(logPath, target);
    try {
      await this.o.rt.reopenContainerLog(id);
    } catch (err) {
      // Upstream: the runtime kept writing the renamed file; put it back so nothing is lost.
      await rename(target, logPath).catch(() => {});
      throw err;
    }
  }
}

/** `<file>` → `<file>.gz` through `<file>.gz.tmp`, then the original goes (upstream compressLog). */
async function compress(path: string): Promise<void> {
  const tmp = `${path}.gz.tmp`;
  await pipeline(createReadStream(path), createGzip(), createWriteStream(tmp));
  await rename(tmp, `${path}.gz`);
  await unlink(path);
}
