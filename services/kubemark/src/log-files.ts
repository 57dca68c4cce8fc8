// The hollow nodes' log files (`<node>/logs/kubelet.log`, `containerd.log`)
// of one worker process, written in batches: a line joins its file's buffer,
// and every `flushMs` each file with lines waiting gets one append. A write
// per line cost a file-system request each (a few hundred lines a second
// while hundreds of nodes start); a batch costs one per file per period. A
// file's lines keep their order; close() appends what waits, then ends it.

import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** How long a line waits at most before its file is appended to. */
export const LOG_FLUSH_MS = 250;

export interface LogFile {
  /** Queues a line (without its newline); dropped once the file is closed. */
  write(line: string): void;
  /** Appends what waits, then closes the file. */
  close(): Promise<void>;
}

interface Open {
  out: WriteStream;
  pending: string;
  closed: boolean;
}

export class LogFiles {
  private readonly dirty = new Set<Open>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly flushMs = LOG_FLUSH_MS) {}

  /** Opens (appending) the file at `path`, its folder made when missing. */
  open(path: string): LogFile {
    mkdirSync(dirname(path), { recursive: true });
    const f: Open = { out: createWriteStream(path, { flags: 'a' }), pending: '', closed: false };
    // A failed append (the disk full, the folder gone) must not end the worker: the file's lines are dropped.
    f.out.on('error', () => {});
    return {
      write: (line) => {
        if (f.closed) return;
        f.pending += line + '\n';
        this.dirty.add(f);
        this.timer ??= setTimeout(() => this.flush(), this.flushMs).unref();
      },
      close: () => {
        if (f.closed) return Promise.resolve();
        this.append(f);
        f.closed = true;
        this.dirty.delete(f);
        return new Promise<void>((resolve) => f.out.end(resolve));
      },
    };
  }

  /** Appends every file's waiting lines now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const f of this.dirty) this.append(f);
    this.dirty.clear();
  }

  private append(f: Open): void {
    if (!f.pending || f.out.writableEnded) return;
    f.out.write(f.pending);
    f.pending = '';
  }
}
