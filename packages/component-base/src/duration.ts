// Go's time.Duration text form, as every upstream duration flag takes it.

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `1m30s` → 90000 (milliseconds). A bare number is taken as seconds. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  const neg = s.startsWith('-');
  if (neg) pos = 1;
  re.lastIndex = pos;
  while (pos < s.length) {
    const m = re.exec(s);
    if (!m) throw new Error(`time: invalid duration "${text}"`);
    total += Number(m[1]) * UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos === (neg ? 1 : 0)) throw new Error(`time: invalid duration "${text}"`);
  return neg ? -total : total;
}

/** 90000 → `1m30s`, as Go prints a Duration. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  let out = '';
  if (h) out += `${h}h`;
  if (h || m) out += `${m}m`;
  out += `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  return (neg ? '-' : '') + out;
}
