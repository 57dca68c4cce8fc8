// Container logs in the CRI log format the kubelet reads back for
// `kubectl logs`: one line per output line, `<RFC3339Nano> <stream> <tag> <text>`,
// tag F for a full line and P for a partial one (split at maxLineBytes).

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { nowNanos, rfc3339Nano } from './time.js';

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

/** Appends a container's output to its log file (created with its directory). */
export class CriLogWriter {
  private readonly pending: Record<Stream, string> = { stdout: '', stderr: '' };
  private failed = false;

  constructor(
    readonly path: string | undefined,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    if (path) {
      try {
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, '');
      } catch (err) {
        this.fail(err as Error);
      }
    }
  }

  write(stream: Stream, text: string): void {
    if (!text) return;
    const { lines, rest } = formatCriLines(stream, this.pending[stream] + text, rfc3339Nano(nowNanos()));
    this.pending[stream] = rest;
    this.append(lines);
  }

  /** Flushes unterminated output as a final full line (the process has exited). */
  close(): void {
    const now = rfc3339Nano(nowNanos());
    const lines: string[] = [];
    for (const s of ['stdout', 'stderr'] as const) {
      if (this.pending[s]) lines.push(`${now} ${s} F ${this.pending[s]}`);
      this.pending[s] = '';
    }
    this.append(lines);
  }

  private append(lines: string[]): void {
    if (!this.path || this.failed || lines.length === 0) return;
    try {
      appendFileSync(this.path, lines.join('\n') + '\n');
    } catch (err) {
      this.fail(err as Error);
    }
  }

  private fail(err: Error): void {
    this.failed = true;
    this.onError(err);
  }
}
