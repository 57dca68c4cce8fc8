// The runtime's metadata on disk (containerd's bolt database under --root):
// written atomically (temp file + rename), coalescing bursts of changes, and
// read back on start to recover sandboxes, containers and images. A change
// after a quiet spell is on disk within `delayMs`; while changes keep coming
// (a burst of pod starts) the whole file is rewritten at most every
// `minIntervalMs`, and flush() writes at once (shutdown, after recovery).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class StateFile<T> {
  readonly path: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the file was last written (ms since the epoch); -Infinity before the first write. */
  private lastWrite = Number.NEGATIVE_INFINITY;

  constructor(
    root: string,
    private readonly snapshot: () => T,
    private readonly delayMs = 20,
    private readonly onError: (err: Error) => void = () => {},
    private readonly minIntervalMs = 250,
  ) {
    mkdirSync(root, { recursive: true });
    this.path = join(root, 'kubelab-cri-state.json');
  }

  read(): T | undefined {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.onError(new Error(`reading ${this.path}: ${(err as Error).message}`));
      return undefined;
    }
  }

  /** Schedules a write; bursts of changes become one write, and writes are at least minIntervalMs apart. */
  touch(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush();
      },
      writeDelay(Date.now(), this.lastWrite, this.delayMs, this.minIntervalMs),
    );
    // Shutdown flushes; a pending write alone does not keep the process up.
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.lastWrite = Date.now();
    try {
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.snapshot()));
      renameSync(tmp, this.path);
    } catch (err) {
      this.onError(new Error(`writing ${this.path}: ${(err as Error).message}`));
    }
  }
}

/** How long a change waits for its write: `delayMs` to gather a burst, longer when the last write is under `minIntervalMs` ago. */
export function writeDelay(now: number, lastWrite: number, delayMs: number, minIntervalMs: number): number {
  return Math.max(delayMs, lastWrite + minIntervalMs - now);
}
