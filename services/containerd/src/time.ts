// CRI timestamps are int64 nanoseconds since the epoch (beyond a double's
// precision, so they travel as decimal strings); log lines use RFC3339Nano.

const originMs = Date.now();
const originHr = process.hrtime.bigint();

/** Now in nanoseconds since the epoch: wall clock at start plus a monotonic offset. */
export function nowNanos(): bigint {
  return BigInt(originMs) * 1_000_000n + (process.hrtime.bigint() - originHr);
}

/** Go's time.RFC3339Nano in UTC: trailing zeros of the fraction trimmed. */
export function rfc3339Nano(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const base = new Date(ms).toISOString().slice(0, 19);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${base}${frac ? '.' + frac : ''}Z`;
}
