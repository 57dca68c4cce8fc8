// The runtime's metadata on disk (containerd's bolt database under --root):
// written atomically (temp file + rename), coalescing bursts of changes, and
// read back on start to recover sandboxes, containers and images.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class StateFile<T> {
  readonly path: string;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    root: string,
    private readonly snapshot: () => T,
    private readonly delayMs = 20,
    private readonly onError: (err: Error) => void = () => {},
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

  /** Schedules a write; bursts of changes become one write. */
  touch(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    try {
      const tmp = `${this.path}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.snapshot()));
      renameSync(tmp, this.path);
    } catch (err) {
      this.onError(new Error(`writing ${this.path}: ${(err as Error).message}`));
    }
  }
}
