// Human-readable durations and sizes as crictl prints them (docker/go-units
// HumanDuration, HumanSize, HumanSizeWithPrecision): "About a minute",
// "3 minutes", "4.19MB".

import { nanosToMs } from '@kubelab/proto';

/** go-units HumanDuration: the CREATED column's words (crictl appends " ago"). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.trunc(ms / 3_600_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(Math.trunc(ms / 3_600_000) / 24 / 365)} years`;
}

/** "<duration> ago" from a CRI timestamp in nanoseconds (int64 as a string). */
export function ago(nanos: string | number, nowMs: number): string {
  return `${humanDuration(nowMs - nanosToMs(nanos))} ago`;
}

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** Go's `%.<p>g`: p significant digits, trailing zeros dropped, exponent form as Go writes it (1e+03). */
export function goFormatG(value: number, precision: number): string {
  if (value === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(Number(value.toPrecision(precision)))));
  if (exp < -4 || exp >= precision) {
    const [mant, e] = value.toExponential(precision - 1).split('e') as [string, string];
    const m = mant.includes('.') ? mant.replace(/\.?0+$/, '') : mant;
    const n = Number(e);
    return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const fixed = value.toFixed(Math.max(0, precision - 1 - exp));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** go-units HumanSizeWithPrecision: decimal (1000-based) units. */
export function humanSizeWithPrecision(size: number, precision: number): string {
  let i = 0;
  while (size >= 1000 && i < DECIMAL_UNITS.length - 1) {
    size /= 1000;
    i++;
  }
  return `${goFormatG(size, precision)}${DECIMAL_UNITS[i]}`;
}

/** go-units HumanSize: four significant digits. */
export function humanSize(size: number): string {
  return humanSizeWithPrecision(size, 4);
}
