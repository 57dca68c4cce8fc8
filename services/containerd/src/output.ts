// What a simulated process writes on fd 1 or 2: text its programs print (a JS
// string, UTF-8 on the wire) or bytes that pass through it unchanged (cat of
// a binary file, tar's archive, stdin copied out), as a real pipe carries
// bytes. just-bash marks the second kind by writing with the "binary"
// (latin1) encoding; the filesystem turns such writes into Buffers.

export type Chunk = string | Uint8Array;

/** The chunk's bytes: text is UTF-8 encoded. */
export function chunkBytes(c: Chunk): Buffer {
  return typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}

/** The chunk as text (for the CRI log and ExecSync): bytes are read as UTF-8. */
export function chunkText(c: Chunk): string {
  return typeof c === 'string' ? c : chunkBytes(c).toString('utf8');
}

/** Whether a chunk carries nothing. */
export function isEmptyChunk(c: Chunk): boolean {
  return c.length === 0;
}

/** A write's content as just-bash hands it to the filesystem: a latin1 byte string when `encoding` is "binary", else text. */
export function writtenChunk(content: string | Uint8Array, encoding: unknown): Chunk {
  if (typeof content !== 'string') return Buffer.from(content);
  const enc = typeof encoding === 'string' ? encoding : (encoding as { encoding?: unknown } | undefined)?.encoding;
  return enc === 'binary' || enc === 'latin1' ? Buffer.from(content, 'latin1') : content;
}
