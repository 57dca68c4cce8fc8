// Adler-32 (RFC 1950), for tests that check a zlib header's dictionary id.
export function adler32(b: Uint8Array): number {
  let a = 1;
  let s = 0;
  for (const x of b) {
    a = (a + x) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}
