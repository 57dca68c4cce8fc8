// metav1.Time and metav1.MicroTime on the wire: RFC 3339 in UTC, second
// precision for Time and microseconds for MicroTime; parsed back to ms since epoch.

/** Formats ms-since-epoch as metav1.Time (RFC 3339, second precision, UTC). */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Formats ms-since-epoch as metav1.MicroTime (RFC 3339 with 6 fractional digits). */
export function formatMicroTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // ...ss.mmmZ
  return `${iso.slice(0, -1)}000Z`;
}

/** Parses metav1.Time/MicroTime to ms since epoch; NaN when absent or malformed. */
export function parseTime(s: string | undefined | null): number {
  return s ? Date.parse(s) : Number.NaN;
}
