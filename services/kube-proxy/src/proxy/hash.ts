// Chain-name hashes as upstream computes them: base32 (RFC 4648, upper case)
// of a SHA-256, truncated — iptables chain names must stay within 28 bytes.

import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** base32.StdEncoding of bytes (padding omitted; callers truncate anyway). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The first n base32 characters of sha256(text). */
export function hashPrefix(text: string, n: number): string {
  return base32(createHash('sha256').update(text).digest()).slice(0, n);
}
