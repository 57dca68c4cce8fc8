// CRI timestamps are int64 nanoseconds since the epoch (beyond a double's
// precision, so they travel as decimal strings); log lines use RFC3339Nano.

const originMs = Date.now();
const originHr = process.hrtime.bigint();

/** Now in nanoseconds since the epoch: wall clock at start plus a monotonic offset. */
export function nowNanos(): bigint {
  return BigInt(originMs) * 1_000_000n + (process.hrtime.bigint() - originHr);
}
