// Reads CRI container log files back for `kubectl logs` (upstream
// pkg/kubelet/kuberuntime/logs): parses `<RFC3339Nano> <stream> <P|F> <text>`
// lines, joins partial lines, applies tailLines / sinceSeconds / limitBytes /
// timestamps, and follows the file while the container runs.

import { closeSync, openSync, readSync, statSync } from 'node:fs';

export interface LogOptions {
  follow?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: string;
  timestamps?: boolean;
  limitBytes?: number;
}

export interface LogLine {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Parses CRI log text into whole lines (partial `P` chunks joined with the next `F`). */
export function parseCriLog(text: string): { lines: LogLine[]; rest: string } {
  const lines: LogLine[] = [];
  let partial: Record<string, string> = {};
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const raw = text.slice(start, nl);
    start = nl + 1;
    const m = /^(\S+) (stdout|stderr) ([PF]) ?(.*)$/.exec(raw);
    if (!m) continue;
    const [, time, stream, tag, body] = m as unknown as [string, string, 'stdout' | 'stderr', string, string];
    if (tag === 'P') {
      partial[stream] = (partial[stream] ?? '') + body;
      continue;
    }
    lines.push({ time, stream, text: (partial[stream] ?? '') + body });
    partial = { ...partial, [stream]: '' };
  }
  return { lines, rest: text.slice(start) };
}

/** Applies sinceSeconds/sinceTime and tailLines to parsed lines. */
export function selectLines(lines: LogLine[], o: LogOptions, now: number): LogLine[] {
  let out = lines;
  const since = o.sinceTime ? Date.parse(o.sinceTime) : o.sinceSeconds !== undefined ? now - o.sinceSeconds * 1000 : undefined;
  if (since !== undefined && !Number.isNaN(since)) out = out.filter((l) => Date.parse(l.time) >= since);
  if (o.tailLines !== undefined && o.tailLines >= 0) out = o.tailLines === 0 ? [] : out.slice(-o.tailLines);
  return out;
}

export function renderLine(l: LogLine, timestamps: boolean): string {
  return timestamps ? `${l.time} ${l.text}\n` : `${l.text}\n`;
}

/**
 * Writes the log of one container instance; with follow, keeps reading new
 * lines until `running()` says the container stopped (after a final read) or
 * the signal aborts.
 */
export async function streamLog(path: string, o: LogOptions, write: (chunk: string) => boolean | void, running: () => Promise<boolean>, signal: AbortSignal, now = Date.now()): Promise<void> {
  let offset = 0;
  let rest: string;
  let budget = o.limitBytes ?? Infinity;
  const emit = (lines: LogLine[]): boolean => {
    for (const l of lines) {
      let s = renderLine(l, !!o.timestamps);
      if (Buffer.byteLength(s) > budget) s = Buffer.from(s).subarray(0, budget).toString();
      budget -= Buffer.byteLength(s);
      write(s);
      if (budget <= 0) return false;
    }
    return true;
  };
  const readNew = (): string => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return '';
    }
    if (size <= offset) return '';
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      const n = readSync(fd, buf, 0, buf.length, offset);
      offset += n;
      return buf.subarray(0, n).toString();
    } finally {
      closeSync(fd);
    }
  };
  const first = parseCriLog(readNew());
  rest = first.rest;
  if (!emit(selectLines(first.lines, o, now))) return;
  if (!o.follow) return;
  while (!signal.aborted) {
    await new Promise((r) => setTimeout(r, 200));
    const more = parseCriLog(rest + readNew());
    rest = more.rest;
    if (!emit(more.lines)) return;
    if (!(await running())) {
      const last = parseCriLog(rest + readNew());
      emit(last.lines);
      return;
    }
  }
}
