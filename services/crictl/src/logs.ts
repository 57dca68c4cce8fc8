// crictl logs: the container's log file, named by ContainerStatus.logPath,
// read and decoded as the kubelet's CRI log reader does (k8s.io/cri-client
// logs.ReadLogs): each line is `<RFC3339Nano time> <stdout|stderr> <P|F>
// <content>`; a full (F) record ends a line, partial (P) records continue it.
// --tail counts records from the end, --timestamps prefixes each record's time,
// -f follows appends until the container stops running.

import { closeSync, openSync, readSync, statSync, watch } from 'node:fs';

export interface LogRecord {
  /** As written: RFC 3339 with nanoseconds. */
  time: string;
  stream: 'stdout' | 'stderr';
  partial: boolean;
  content: string;
}

/** One line of a CRI log file, or undefined when it is not one. */
export function parseCriLine(line: string): LogRecord | undefined {
  const a = line.indexOf(' ');
  const b = line.indexOf(' ', a + 1);
  if (a <= 0 || b < 0) return undefined;
  const stream = line.slice(a + 1, b);
  if (stream !== 'stdout' && stream !== 'stderr') return undefined;
  const tag = line.slice(b + 1, b + 2);
  if (tag !== 'P' && tag !== 'F') return undefined;
  const time = line.slice(0, a);
  if (Number.isNaN(Date.parse(time))) return undefined;
  return { time, stream, partial: tag === 'P', content: line.slice(b + 3) };
}

/** Go re-formats the parsed time with RFC3339Nano: trailing zeros of the fraction dropped. */
export function formatLogTime(time: string): string {
  return time.replace(/\.(\d*?)0+(Z|[+-]\d\d:\d\d)$/, (_m, d: string, z: string) => (d ? `.${d}${z}` : z));
}

export interface LogOptions {
  timestamps?: boolean;
  /** Records from the end; undefined or negative: all. */
  tail?: number;
  stream?: 'stdout' | 'stderr' | '';
  /** Only records at or after this time (ms). */
  sinceMs?: number;
  /** Stop after this many bytes of output. */
  limitBytes?: number;
}

/** The text one record prints and the stream it goes to. */
export function renderRecord(r: LogRecord, o: LogOptions): string {
  return `${o.timestamps ? `${formatLogTime(r.time)} ` : ''}${r.content}${r.partial ? '' : '\n'}`;
}

export function selectRecords(text: string, o: LogOptions): LogRecord[] {
  let lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (o.tail !== undefined && o.tail >= 0) lines = o.tail === 0 ? [] : lines.slice(-o.tail);
  const out: LogRecord[] = [];
  for (const l of lines) {
    const r = parseCriLine(l);
    if (!r) continue;
    if (o.stream && r.stream !== o.stream) continue;
    if (o.sinceMs !== undefined && Date.parse(r.time) < o.sinceMs) continue;
    out.push(r);
  }
  return out;
}

export interface LogSink {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** A bounded writer: stops passing bytes once limitBytes are out; returns false then. */
function limited(sink: LogSink, limit: number | undefined): (r: LogRecord, text: string) => boolean {
  let left = limit !== undefined && limit >= 0 ? limit : Infinity;
  return (r, text) => {
    if (left <= 0) return false;
    const b = Buffer.from(text);
    const piece = b.length > left ? b.subarray(0, left).toString() : text;
    left -= Math.min(b.length, left);
    sink[r.stream](piece);
    return left > 0;
  };
}

/** Reads the file once (as without -f). */
export function readLogs(path: string, o: LogOptions, sink: LogSink): { offset: number } {
  const st = statSync(path);
  const text = readRange(path, 0, st.size);
  const emit = limited(sink, o.limitBytes);
  for (const r of selectRecords(text, o)) if (!emit(r, renderRecord(r, o))) break;
  return { offset: st.size };
}

const MAX_READ = 4 * 1024 * 1024;

function readRange(path: string, from: number, to: number): string {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let pos = from; pos < to;) {
      const buf = Buffer.alloc(Math.min(MAX_READ, to - pos));
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      chunks.push(buf.subarray(0, n));
      pos += n;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** cri-client's stateCheckPeriod: how often a follower asks whether the container still runs. */
export const STATE_CHECK_MS = 5000;

/**
 * -f: prints what is there, then each appended line as it arrives (fs.watch;
 * a rotated file, smaller than what was read, is read again from its start),
 * until `running()` says the container stopped or `signal` aborts.
 */
export async function followLogs(path: string, o: LogOptions, sink: LogSink, running: () => Promise<boolean>, signal: AbortSignal): Promise<void> {
  let { offset } = readLogs(path, o, sink);
  let rest = '';
  const follow: LogOptions = { ...o, tail: -1 };
  const drain = () => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return;
    }
    if (size < offset) offset = 0; // rotated or truncated
    if (size === offset) return;
    const text = rest + readRange(path, offset, size);
    offset = size;
    const cut = text.lastIndexOf('\n');
    rest = cut < 0 ? text : text.slice(cut + 1);
    if (cut >= 0) for (const r of selectRecords(text.slice(0, cut + 1), follow)) sink[r.stream](renderRecord(r, follow));
  };
  await new Promise<void>((resolve) => {
    const watcher = watch(path, () => drain());
    watcher.on('error', () => {});
    const timer = setInterval(() => {
      drain();
      void running().then(
        (yes) => !yes && stop(),
        () => stop(),
      );
    }, STATE_CHECK_MS);
    const stop = () => {
      drain();
      watcher.close();
      clearInterval(timer);
      resolve();
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
