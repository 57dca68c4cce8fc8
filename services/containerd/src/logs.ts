// Container logs in the CRI log format the kubelet reads back for
// `kubectl logs`: one line per output line, `<RFC3339Nano> <stream> <tag> <text>`,
// tag F for a full line and P for a partial one (split at maxLineBytes).

import { appendFileSync, closeSync, mkdirSync, open, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { rfc3339Nano } from '@kubelab/proto';
import { nowNanos } from './time.js';

export type Stream = 'stdout' | 'stderr';

/** Formats one chunk of output as CRI log lines; returns the lines and the unterminated rest. */
export function formatCriLines(stream: Stream, text: string, now: string, maxLineBytes = 16 * 1024): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    let line = text.slice(start, nl);
    while (line.length > maxLineBytes) {
      lines.push(`${now} ${stream} P ${line.slice(0, maxLineBytes)}`);
      line = line.slice(maxLineBytes);
    }
    lines.push(`${now} ${stream} F ${line}`);
    start = nl + 1;
  }
  return { lines, rest: text.slice(start) };
}

/** Log files being made: the runtime waits for them before it reports itself stopped (nothing is made after). */
const making = new Set<Promise<void>>();

/** Resolves when every log file being made is there (or has failed). */
export async function logFilesMade(): Promise<void> {
  while (making.size) await Promise.all([...making]);
}

/**
 * Appends a container's output to its log file. The directory and the empty
 * file are made off the event loop as the container starts (containerd opens
 * the file at task start; a mkdir can block for a millisecond on a busy disk,
 * which a burst of starts should not wait for). The output of one event-loop
 * turn goes to the file in one append at the end of that turn (a shell loop's
 * echoes are one write, not hundreds); close() writes what is left at once,
 * making the file first if it is not there yet.
 */
export class CriLogWriter {
  private readonly pending: Record<Stream, string> = { stdout: '', stderr: '' };
  /** Formatted lines not yet in the file. */
  private queued = '';
  private scheduled = false;
  /** The directory and file exist (made by the async start or by a synchronous close). */
  private made = false;
  private failed = false;
  /** The open log file (containerd keeps it open; ReopenContainerLog swaps it after the kubelet rotated it). */
  private fd: number | undefined;
  private closed = false;

  constructor(
    readonly path: string | undefined,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    if (!path) return;
    const p = mkdir(dirname(path), { recursive: true })
      .then(() => promisify(open)(path, 'a'))
      .then(
        (fd) => this.opened(fd),
        (err: Error) => this.fail(err),
      )
      .finally(() => making.delete(p));
    making.add(p);
  }

  write(stream: Stream, text: string): void {
    if (!text) return;
    const { lines, rest } = formatCriLines(stream, this.pending[stream] + text, rfc3339Nano(nowNanos()));
    this.pending[stream] = rest;
    this.queue(lines);
  }

  /** Flushes unterminated output as a final full line (the process has exited), and everything queued. */
  close(): void {
    const now = rfc3339Nano(nowNanos());
    const lines: string[] = [];
    for (const s of ['stdout', 'stderr'] as const) {
      if (this.pending[s]) lines.push(`${now} ${s} F ${this.pending[s]}`);
      this.pending[s] = '';
    }
    this.queue(lines);
    if (!this.path || this.failed) return;
    this.closed = true;
    if (this.made) {
      this.flush();
      this.release();
      return;
    }
    // Exited before its file was made (a start error, a quick `echo`): made here, so the log is there when the exit is seen.
    this.made = true;
    const text = this.queued;
    this.queued = '';
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, text);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  /**
   * containerd's ReopenContainerLog: what is queued goes to the old file, which is closed;
   * the path (renamed away by the kubelet's log rotation) is opened anew.
   */
  reopen(): void {
    if (!this.path || this.failed || this.closed) return;
    this.flush();
    this.release();
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, 'a');
      this.made = true;
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private release(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    this.fd = undefined;
  }

  private queue(lines: string[]): void {
    if (!this.path || this.failed || lines.length === 0) return;
    this.queued += lines.join('\n') + '\n';
    if (this.made && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private opened(fd: number): void {
    // Closed or reopened meanwhile: this late descriptor is not needed.
    if (this.made || this.closed) {
      closeSync(fd);
      return;
    }
    this.fd = fd;
    this.made = true;
    this.flush();
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.queued || this.failed) return;
    const text = this.queued;
    this.queued = '';
    try {
      appendFileSync(this.fd ?? this.path!, text);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.queued = '';
    this.release();
    this.onError(err);
  }
}
