// Line formats, pure: klog's text header and key/value rules, component-base's JSON
// format (logs/json), and logrus' text and JSON formats as containerd writes them.

/** klog.KObj / klog.KRef: an object named by namespace/name; text `"ns/name"`, JSON `{"name","namespace"}`. */
export class ObjectRef {
  constructor(
    readonly namespace: string,
    readonly name: string,
  ) {}
  toString(): string {
    return this.namespace ? `${this.namespace}/${this.name}` : this.name;
  }
  toJSON(): { name: string; namespace?: string } {
    return this.namespace ? { name: this.name, namespace: this.namespace } : { name: this.name };
  }
}

/** klog.KObjSlice: text `["ns/a" "ns/b"]` (Go's %q of a slice), JSON a list of refs. */
export class ObjectRefs {
  constructor(readonly refs: readonly ObjectRef[]) {}
  toJSON(): ReturnType<ObjectRef['toJSON']>[] {
    return this.refs.map((r) => r.toJSON());
  }
}

interface Named {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}
export const kRef = (namespace: string, name: string): ObjectRef => new ObjectRef(namespace, name);
export const kObj = (o: Named | undefined): ObjectRef => new ObjectRef(o?.metadata?.namespace ?? '', o?.metadata?.name ?? '');
export const kObjSlice = (objs: readonly Named[]): ObjectRefs => new ObjectRefs(objs.map(kObj));

/** When a line was written: epoch milliseconds with a fraction (µs from performance.now). */
export type Stamp = number;

const two = (n: number) => (n < 10 ? '0' : '') + n;

/** klog's header: `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (UTC, as on a node whose TZ is UTC). */
export function klogHeader(severity: 'I' | 'W' | 'E', t: Stamp, pid: number, caller: string): string {
  const d = new Date(Math.floor(t));
  const micros = String(Math.floor((t * 1000) % 1_000_000)).padStart(6, '0');
  const day = `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
  const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${micros}`;
  return `${severity}${day} ${clock} ${String(pid).padStart(7)} ${caller}] `;
}

/** Go's strconv.Quote, close enough: JSON escaping but non-ASCII printable runes kept. */
export const goQuote = (s: string): string => JSON.stringify(s);

/** klog's multi-line string value: `key=<` then each line tab-indented, closed by ` >`. */
function multiline(s: string): string {
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  return `<\n${body
    .split('\n')
    .map((l) => '\t' + l)
    .join('\n')}\n >`;
}

/** One value as klog's text format writes it (internal/serialize formatKV). */
export function klogValue(v: unknown): string {
  if (v instanceof ObjectRef) return goQuote(v.toString());
  if (v instanceof ObjectRefs) return `[${v.refs.map((r) => goQuote(r.toString())).join(' ')}]`;
  if (typeof v === 'string') return v.includes('\n') ? multiline(v) : goQuote(v);
  if (v instanceof Error) return v.message.includes('\n') ? multiline(v.message) : goQuote(v.message);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === null || v === undefined) return '<nil>';
  if (v instanceof Date) return goQuote(v.toISOString());
  // Go prints other values with %+v; a JS object reads best as its JSON.
  return JSON.stringify(v, jsonReplacer) ?? String(v);
}

/** ` key=value` pairs in order (klog: the logger's WithValues first, then the call's). */
export function klogKeyValues(fields: Record<string, unknown>): string {
  let out = '';
  for (const k in fields) out += ` ${k}=${klogValue(fields[k])}`;
  return out;
}

/** A whole klog text line: header, quoted message, key/values. */
export function klogLine(severity: 'I' | 'W' | 'E', t: Stamp, pid: number, caller: string, msg: string, fields: Record<string, unknown>): string {
  return `${klogHeader(severity, t, pid, caller)}${goQuote(msg)}${klogKeyValues(fields)}`;
}

function jsonReplacer(_k: string, v: unknown): unknown {
  if (v instanceof Error) return v.message;
  if (typeof v === 'bigint') return v.toString();
  return v;
}

/**
 * component-base's JSON format: `{"ts":<epoch s>,"caller":"file:line","msg":…,"v":N,…}`;
 * error lines carry `err` and no `v` (klog.ErrorS).
 */
export function klogJsonLine(t: Stamp, caller: string, msg: string, v: number | undefined, fields: Record<string, unknown>): string {
  const rec: Record<string, unknown> = { ts: t / 1000, caller, msg };
  if (v !== undefined) rec.v = v;
  for (const k in fields) if (!(k in rec)) rec[k] = fields[k];
  return JSON.stringify(rec, jsonReplacer);
}

export type LogrusLevel = 'debug' | 'info' | 'warning' | 'error';

/** RFC3339Nano in UTC as Go prints it: fraction without trailing zeros. */
export function rfc3339Nano(t: Stamp): string {
  const iso = new Date(Math.floor(t)).toISOString().slice(0, 19);
  const frac = String(Math.floor((t * 1000) % 1_000_000))
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${iso}${frac ? '.' + frac : ''}Z`;
}

// logrus' TextFormatter quotes a value unless every character is one of these.
const LOGRUS_BARE = /^[A-Za-z0-9\-._/@^+]+$/;
const logrusValue = (v: unknown): string => {
  const s = v instanceof Error ? v.message : typeof v === 'string' ? v : v instanceof ObjectRef ? v.toString() : (JSON.stringify(v, jsonReplacer) ?? String(v));
  return LOGRUS_BARE.test(s) ? s : goQuote(s);
};

/** containerd's lines (logrus TextFormatter, no TTY): `time="…" level=info msg="…" key=value`, fields sorted; an error is `error=`. */
export function logrusTextLine(t: Stamp, level: LogrusLevel, msg: string, fields: Record<string, unknown>): string {
  let out = `time="${rfc3339Nano(t)}" level=${level} msg=${logrusValue(msg)}`;
  for (const [k, v] of logrusFields(fields)) out += ` ${k}=${logrusValue(v)}`;
  return out;
}

/** logrus JSONFormatter (containerd --log-format=json): keys sorted as Go's encoding/json writes a map. */
export function logrusJsonLine(t: Stamp, level: LogrusLevel, msg: string, fields: Record<string, unknown>): string {
  const rec: Record<string, unknown> = { level, msg, time: rfc3339Nano(t) };
  for (const [k, v] of logrusFields(fields)) rec[k] = v;
  const sorted = Object.fromEntries(Object.entries(rec).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify(sorted, jsonReplacer);
}

function logrusFields(fields: Record<string, unknown>): [string, unknown][] {
  return Object.entries(fields)
    .map(([k, v]): [string, unknown] => [k === 'err' ? 'error' : k, v])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}
