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

/** Two turns: the write's own checkpoint may hand the thread back for one (cpu.ts) before the command's stderr is written. */
function twoTurns(f: () => void): void {
  setImmediate(() => setImmediate(f));
}

/**
 * An exec's output where a command's stderr is not held up behind bytes it
 * wrote on stdout in the same turn: just-bash hands a finished command's
 * stdout over before its stderr, while a real program such as GNU tar writes
 * its notice ("Removing leading `/'") before the archive, and a client reading
 * the archive (kubectl cp) may stop at its end. Bytes on stdout wait two
 * turns of the event loop (text on stdout waits behind them, so stdout
 * keeps its order); `flush` hands over what waits, at the exec's end.
 */
export function stderrFirst(
  output: (stream: 'stdout' | 'stderr', data: Chunk) => void,
  later: (f: () => void) => void = twoTurns,
): { write: (stream: 'stdout' | 'stderr', data: Chunk) => void; flush: () => void } {
  let held: Chunk[] = [];
  const flush = () => {
    const h = held;
    held = [];
    for (const c of h) output('stdout', c);
  };
  return {
    write(stream, data) {
      if (stream === 'stderr' || (held.length === 0 && typeof data === 'string')) return output(stream, data);
      if (held.length === 0) later(flush);
      held.push(data);
    },
    flush,
  };
}
