// CRI timestamps are int64 nanoseconds since the epoch, beyond a double's
// precision, so the loader hands them over as decimal strings.

/**
 * A CRI timestamp as whole milliseconds since the epoch (rounded toward zero);
 * 0 when unset. A decimal string loses its last six digits instead of being
 * divided as a BigInt: the kubelet reads several per container on every relist.
 */
export function nanosToMs(ns: string | number | bigint | null | undefined): number {
  if (typeof ns === 'string') {
    if (/^\d+$/.test(ns)) return ns.length > 6 ? Number(ns.slice(0, -6)) : 0;
    return ns === '' ? 0 : Number(BigInt(ns) / 1_000_000n);
  }
  if (typeof ns === 'number') return Math.trunc(ns / 1e6);
  return typeof ns === 'bigint' ? Number(ns / 1_000_000n) : 0;
}

/** Go's time.Format(time.RFC3339Nano) in UTC from int64 nanoseconds; 0 is Go's zero time. */
export function rfc3339Nano(nanos: string | number | bigint | undefined): string {
  const ns = BigInt(nanos ?? 0);
  if (ns === 0n) return '0001-01-01T00:00:00Z';
  const secs = ns / 1_000_000_000n;
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${new Date(Number(secs) * 1000).toISOString().slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}
