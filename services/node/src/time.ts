// systemd's time texts (src/basic/time-util.c): the journal's short
// timestamp, systemctl's `Tue 2026-12-01 13:30:12 UTC; 3min 2s ago`, time
// spans (`4min 48.123s`), and the timestamps --since/--until accept
// (systemd.time(7)). Local time, as the tools print it.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const p2 = (n: number) => String(n).padStart(2, '0');

/** `Dec 01 13:33:15` (journalctl -o short). */
export function shortTime(d: Date): string {
  return `${MONTHS[d.getMonth()]} ${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
}

function zoneName(d: Date): string {
  return new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
}

/** `Tue 2026-12-01 13:30:12 UTC` (format_timestamp). */
export function statusTimestamp(d: Date): string {
  return `${DAYS[d.getDay()]} ${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())} ${zoneName(d)}`;
}

const SEC = 1e6;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 2629800 * SEC;
const YEAR = 31557600 * SEC;

/** `3min 2s ago` (format_timestamp_relative: two units at most, coarser as time passes). */
export function relativeAgo(us: number): string {
  const f = Math.floor;
  if (us <= 0) return 'now';
  if (us >= YEAR) {
    const y = f(us / YEAR);
    const m = f((us % YEAR) / MONTH);
    return `${y} ${y === 1 ? 'year' : 'years'} ${m} ${m === 1 ? 'month' : 'months'} ago`;
  }
  if (us >= MONTH) return `${f(us / MONTH)} months ${f((us % MONTH) / DAY)} days ago`;
  if (us >= WEEK) return `${f(us / WEEK)} weeks ${f((us % WEEK) / DAY)} days ago`;
  if (us >= 2 * DAY) return `${f(us / DAY)} days ago`;
  if (us >= 25 * HOUR) return `1 day ${f((us - DAY) / HOUR)}h ago`;
  if (us >= 6 * HOUR) return `${f(us / HOUR)}h ago`;
  if (us >= HOUR) return `${f(us / HOUR)}h ${f((us % HOUR) / MIN)}min ago`;
  if (us >= 5 * MIN) return `${f(us / MIN)}min ago`;
  if (us >= MIN) return `${f(us / MIN)}min ${f((us % MIN) / SEC)}s ago`;
  if (us >= SEC) return `${f(us / SEC)}s ago`;
  if (us >= 1000) return `${f(us / 1000)}ms ago`;
  return `${f(us)}us ago`;
}

/** `4min 48.123s`, `1.234s`, `345ms` (format_timespan with millisecond accuracy). */
export function timespan(us: number): string {
  const ms = Math.round(us / 1000);
  if (ms <= 0) return '0';
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  const s = Math.floor(rest / 1000);
  const frac = rest % 1000;
  // Seconds in dot notation with the accuracy's three digits (`1.970s`), whole when exact.
  if (s > 0 || frac > 0) parts.push(frac ? `${s}.${String(frac).padStart(3, '0')}s` : `${s}s`);
  return parts.join(' ');
}

const SPAN_UNITS: [RegExp, number][] = [
  [/^(us|usec|µs)$/, 1],
  [/^(ms|msec)$/, 1000],
  [/^(s|sec|secs|second|seconds)$/, SEC],
  [/^(m|min|mins|minute|minutes)$/, MIN],
  [/^(h|hr|hour|hours)$/, HOUR],
  [/^(d|day|days)$/, DAY],
  [/^(w|week|weeks)$/, WEEK],
  [/^(M|month|months)$/, MONTH],
  [/^(y|year|years)$/, YEAR],
];

/** `5 min`, `1h 30min`, `90s` → µs (parse_sec); undefined when not a span. */
export function parseSpan(s: string): number | undefined {
  const re = /\s*(\d+(?:\.\d+)?)\s*([a-zA-Zµ]+)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let end = 0;
  let any = false;
  while ((m = re.exec(s))) {
    const unit = SPAN_UNITS.find(([r]) => r.test(m![2]!));
    if (!unit) return undefined;
    total += Number(m[1]) * unit[1];
    end = re.lastIndex;
    any = true;
  }
  return any && s.slice(end).trim() === '' ? total : undefined;
}

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/**
 * A --since/--until value → µs since the epoch (parse_timestamp): `now`,
 * `today`, `yesterday`, `tomorrow`, `5 min ago`, `-5min`, `+1h`, `@1733059995`,
 * `2026-12-01 13:30:12`, `2026-12-01 13:30`, `2026-12-01`, `13:30:12`, `13:30`.
 * Undefined when none of these.
 */
export function parseTimestamp(s: string, now: Date): number | undefined {
  const t = s.trim();
  const nowUs = now.getTime() * 1000;
  if (t === 'now') return nowUs;
  if (t === 'today') return startOfDay(now).getTime() * 1000;
  if (t === 'yesterday') return (startOfDay(now).getTime() - 86_400_000) * 1000;
  if (t === 'tomorrow') return (startOfDay(now).getTime() + 86_400_000) * 1000;
  if (t.startsWith('@') && /^@\d+(\.\d+)?$/.test(t)) return Math.round(Number(t.slice(1)) * SEC);
  const ago = /^(.*\S)\s+ago$/.exec(t);
  if (ago || t.startsWith('-') || t.startsWith('+')) {
    const span = parseSpan(ago ? ago[1]! : t.slice(1));
    if (span === undefined) return undefined;
    return t.startsWith('+') ? nowUs + span : nowUs - span;
  }
  const m = /^(?:(\d{4})-(\d{2})-(\d{2}))?(?:[ T]?(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (!m || (!m[1] && !m[4])) return undefined;
  const base = m[1] ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : startOfDay(now);
  if (m[1] && (base.getMonth() !== Number(m[2]) - 1 || base.getDate() !== Number(m[3]))) return undefined;
  if (m[4]) {
    const [h, min, sec] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    if (h > 23 || min > 59 || sec > 59) return undefined;
    base.setHours(h, min, sec, 0);
  }
  return base.getTime() * 1000;
}
