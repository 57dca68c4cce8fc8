// The runtime's metadata on disk (containerd's bolt database under --root):
// written atomically (temp file + rename), coalescing bursts of changes, and
// read back on start to recover sandboxes, containers and images. A change
// after a quiet spell is on disk within `delayMs`; while changes keep coming
// (a burst of pod starts) the whole file is rewritten at most every
// `minIntervalMs`, and flush() writes at once (shutdown, after recovery).
// The paced writes leave the event loop while the bytes go to disk (a
// thousand containers are 1.5 MB: 10–20 ms the CRI server would otherwise
// stand still, every quarter second of a burst); only the newest snapshot
// is renamed into place.

import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const NAME = 'kubelab-cri-state.json';

export class StateFile<T> {
  readonly path: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the file was last written (ms since the epoch); -Infinity before the first write. */
  private lastWrite = Number.NEGATIVE_INFINITY;
  /** Snapshots taken, and the newest of them in place: an older write finishing late is dropped. */
  private taken = 0;
  private inPlace = 0;
  /** The paced write under way, if any; a change meanwhile is written after it (`again`). */
  private writing: Promise<void> | undefined;
  private again = false;

  constructor(
    root: string,
    private readonly snapshot: () => T,
    private readonly delayMs = 20,
    private readonly onError: (err: Error) => void = () => {},
    private readonly minIntervalMs = 250,
  ) {
    mkdirSync(root, { recursive: true });
    this.path = join(root, NAME);
    // Snapshots a stopped runtime was still writing.
    for (const f of readdirSync(root)) if (f.startsWith(`${NAME}.tmp`)) rmSync(join(root, f), { force: true });
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
        this.writeInBackground();
      },
      writeDelay(Date.now(), this.lastWrite, this.delayMs, this.minIntervalMs),
    );
    // Shutdown flushes; a pending write alone does not keep the process up.
    this.timer.unref?.();
  }

  /** Writes the current state at once, before returning. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const { n, tmp } = this.nextSnapshot();
    try {
      writeFileSync(tmp, JSON.stringify(this.snapshot()));
      this.putInPlace(n, tmp);
    } catch (err) {
      this.failed(err);
    }
  }

  /** Resolves once no paced write is under way (tests; a caller that must see the file). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private writeInBackground(): void {
    if (this.writing) {
      this.again = true;
      return;
    }
    const { n, tmp } = this.nextSnapshot();
    let text: string;
    try {
      text = JSON.stringify(this.snapshot());
    } catch (err) {
      this.failed(err);
      return;
    }
    this.writing = writeFile(tmp, text)
      .then(() => this.putInPlace(n, tmp))
      .catch((err: unknown) => this.failed(err))
      .finally(() => {
        this.writing = undefined;
        if (this.again) {
          this.again = false;
          this.touch();
        }
      });
  }

  /** The next snapshot's number and temp file; the write counts from now for the pacing. */
  private nextSnapshot(): { n: number; tmp: string } {
    this.lastWrite = Date.now();
    const n = ++this.taken;
    return { n, tmp: `${this.path}.tmp-${n}` };
  }

  private failed(err: unknown): void {
    this.onError(new Error(`writing ${this.path}: ${(err as Error).message}`));
  }

  /** Renames snapshot `n` into place unless a newer one already is (a flush while it was written). */
  private putInPlace(n: number, tmp: string): void {
    if (n < this.inPlace) {
      rmSync(tmp, { force: true });
      return;
    }
    renameSync(tmp, this.path);
    this.inPlace = n;
  }
}

/** How long a change waits for its write: `delayMs` to gather a burst, longer when the last write is under `minIntervalMs` ago. */
export function writeDelay(now: number, lastWrite: number, delayMs: number, minIntervalMs: number): number {
  return Math.max(delayMs, lastWrite + minIntervalMs - now);
}
