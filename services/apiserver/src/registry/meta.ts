// Server-managed metadata helpers (upstream: rest.BeforeCreate and
// names.SimpleNameGenerator).

import { randomUUID, randomInt } from 'node:crypto';
import { formatTime } from '@kubelab/api';

/** metav1.Time: RFC 3339, UTC, second precision. */
export function nowTime(offsetSeconds = 0): string {
  const sec = Math.floor(Date.now() / 1000) + offsetSeconds;
  // Formatted once per second: every create in that second stamps the same text.
  if (sec !== lastSec) {
    lastSec = sec;
    lastText = formatTime(sec * 1000);
  }
  return lastText;
}

let lastSec = NaN;
let lastText = '';

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** generateName + 5 random characters (no vowels, as upstream, to avoid words). */
export function generateName(base: string): string {
  const maxBase = 63 - 5;
  let s = base.length > maxBase ? base.slice(0, maxBase) : base;
  for (let i = 0; i < 5; i++) s += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return s;
}

export function newUid(): string {
  return randomUUID();
}
