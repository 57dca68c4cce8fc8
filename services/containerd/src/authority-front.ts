// The CRI socket's front door. gRPC-Go before 1.57 (crictl/critest ≤ 1.28, the
// kubelet of that generation) sends the unix socket's path as the HTTP/2
// `:authority` ("/run/containerd/containerd.sock"), some clients its
// percent-encoding, newer ones "localhost". containerd's Go HTTP/2 server takes
// all of them; Node's HTTP/2 layer (nghttp2) resets a stream whose
// `:authority` holds a "/" (RST_STREAM PROTOCOL_ERROR) before grpc-js sees it.
//
// The front sits between the socket and grpc-js: it passes every frame through
// unchanged except the client's header blocks, which it decodes (HPACK with the
// client's dynamic table) and re-encodes without the dynamic table, with an
// `:authority` nghttp2 accepts. Server-to-client bytes are not touched.
//
// A gRPC client keeps one `:authority` for the whole connection. When the first
// header block's is one nghttp2 takes (grpc-js and newer gRPC-Go send
// "localhost"), that block and every later byte pass untouched: the server's
// HPACK table then follows the client's, and nothing is parsed per call.

import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import hpack from 'hpack.js';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const FRAME_HEADERS = 0x1;
const FRAME_CONTINUATION = 0x9;
const FLAG_END_STREAM = 0x1;
const FLAG_END_HEADERS = 0x4;
const FLAG_PADDED = 0x8;
const FLAG_PRIORITY = 0x20;
/** SETTINGS_MAX_FRAME_SIZE's initial value; Node's server does not raise it for what it receives. */
const MAX_FRAME = 16384;
/** SETTINGS_HEADER_TABLE_SIZE the server advertises (Node's default); the client's encoder stays within it. */
const HEADER_TABLE_SIZE = 4096;

/** A host[:port] (or [v6]:port) form nghttp2 takes as `:authority`. */
const PLAIN_AUTHORITY = /^[A-Za-z0-9._~-]*(?::[0-9]*)?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]*)?$/;

/** The `:authority` handed to grpc-js: as sent when it is a host[:port], else "localhost" (a socket path, raw or percent-encoded). */
export function normalizeAuthority(value: string): string {
  return value !== '' && PLAIN_AUTHORITY.test(value) ? value : 'localhost';
}

function hpackInt(value: number, prefixBits: number, first: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [first | value];
  const out = [first | max];
  let v = value - max;
  while (v >= 128) {
    out.push((v % 128) + 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** Header block of literal fields without indexing (RFC 7541 §6.2.2), plain strings: the server's dynamic table stays empty. */
export function encodeHeaderBlock(headers: { name: string; value: string; neverIndex?: boolean }[]): Buffer {
  const parts: Buffer[] = [];
  for (const h of headers) {
    const name = Buffer.from(h.name, 'latin1');
    const value = Buffer.from(h.value, 'latin1');
    parts.push(Buffer.from([h.neverIndex ? 0x10 : 0x00]), Buffer.from(hpackInt(name.length, 7, 0)), name, Buffer.from(hpackInt(value.length, 7, 0)), value);
  }
  return Buffer.concat(parts);
}

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

interface PendingHeaders {
  streamId: number;
  flags: number;
  priority: Buffer;
  fragments: Buffer[];
  /** The block's frames as received, handed on unchanged if the connection turns out not to need rewriting. */
  frames: Buffer[];
}

/** Rewrites a client's HTTP/2 byte stream (connection preface, then frames); see the file comment. */
export class HeaderRewriter {
  private buf: Buffer = Buffer.alloc(0);
  private prefaceDone = false;
  private pending: PendingHeaders | undefined;
  private readonly decoder = hpack.decompressor.create({ table: { maxSize: HEADER_TABLE_SIZE } });
  private failure: Error | undefined;
  /** Until the first header block: undecided; then whether blocks are rewritten ('rewrite') or every byte passes ('pass'). */
  private mode: 'undecided' | 'rewrite' | 'pass' = 'undecided';

  constructor() {
    this.decoder.on('error', (err) => (this.failure = err));
  }

  /** Bytes to hand on for the client's next chunk; throws on a malformed header block (the connection is then closed). */
  push(chunk: Buffer): Buffer {
    if (this.mode === 'pass') return chunk;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    if (!this.prefaceDone) {
      if (this.buf.length < PREFACE.length) return Buffer.alloc(0);
      out.push(this.buf.subarray(0, PREFACE.length));
      this.buf = this.buf.subarray(PREFACE.length);
      this.prefaceDone = true;
    }
    while (this.buf.length >= 9) {
      const len = this.buf.readUIntBE(0, 3);
      if (this.buf.length < 9 + len) break;
      const type = this.buf[3]!;
      const flags = this.buf[4]!;
      const streamId = this.buf.readUInt32BE(5) & 0x7fffffff;
      const whole = this.buf.subarray(0, 9 + len);
      const payload = whole.subarray(9);
      this.buf = this.buf.subarray(9 + len);
      if (type === FRAME_HEADERS) {
        let body = payload;
        if (flags & FLAG_PADDED) {
          const pad = body[0] ?? 0;
          body = body.subarray(1, Math.max(1, body.length - pad));
        }
        let priority = Buffer.alloc(0);
        if (flags & FLAG_PRIORITY) {
          priority = Buffer.from(body.subarray(0, 5));
          body = body.subarray(5);
        }
        this.pending = { streamId, flags, priority, fragments: [Buffer.from(body)], frames: [Buffer.from(whole)] };
      } else if (type === FRAME_CONTINUATION && this.pending) {
        this.pending.fragments.push(Buffer.from(payload));
        this.pending.frames.push(Buffer.from(whole));
      } else {
        out.push(Buffer.from(whole));
        continue;
      }
      if (flags & FLAG_END_HEADERS) {
        const headers = this.decode(this.pending);
        if (this.mode === 'undecided') {
          const authority = headers.find((h) => h.name === ':authority')?.value;
          this.mode = authority !== undefined && normalizeAuthority(authority) === authority ? 'pass' : 'rewrite';
        }
        if (this.mode === 'pass') {
          // The server decodes this block with the same table the client encoded it with; from here on nothing is parsed.
          out.push(...this.pending.frames, this.buf);
          this.buf = Buffer.alloc(0);
          this.pending = undefined;
          break;
        }
        out.push(this.reencode(this.pending, headers));
        this.pending = undefined;
      }
    }
    return Buffer.concat(out);
  }

  private decode(p: PendingHeaders): { name: string; value: string; neverIndex: boolean }[] {
    this.decoder.write(Buffer.concat(p.fragments));
    this.decoder.execute();
    if (this.failure) throw this.failure;
    const headers: { name: string; value: string; neverIndex: boolean }[] = [];
    for (let h = this.decoder.read(); h; h = this.decoder.read()) headers.push(h);
    return headers;
  }

  private reencode(p: PendingHeaders, decoded: { name: string; value: string; neverIndex: boolean }[]): Buffer {
    const headers = decoded.map((h) => (h.name === ':authority' ? { ...h, value: normalizeAuthority(h.value) } : h));
    const block = Buffer.concat([p.priority, encodeHeaderBlock(headers)]);
    const flags = (p.flags & (FLAG_END_STREAM | FLAG_PRIORITY)) | (block.length <= MAX_FRAME ? FLAG_END_HEADERS : 0);
    const frames = [frame(FRAME_HEADERS, flags, p.streamId, block.subarray(0, MAX_FRAME))];
    for (let off = MAX_FRAME; off < block.length; off += MAX_FRAME) {
      const last = off + MAX_FRAME >= block.length;
      frames.push(frame(FRAME_CONTINUATION, last ? FLAG_END_HEADERS : 0, p.streamId, block.subarray(off, off + MAX_FRAME)));
    }
    return Buffer.concat(frames);
  }
}

/** The connection grpc-js serves: the client's bytes through a HeaderRewriter, the server's straight to the socket. */
export class AuthorityFront extends Duplex {
  private readonly rewriter = new HeaderRewriter();

  constructor(private readonly socket: Socket) {
    super();
    socket.on('data', (chunk: Buffer) => {
      let out: Buffer;
      try {
        out = this.rewriter.push(chunk);
      } catch {
        // HPACK decoding error: as an HTTP/2 server does (COMPRESSION_ERROR), the connection ends.
        socket.destroy();
        return;
      }
      if (out.length && !this.push(out)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('close', () => this.destroy());
    socket.on('error', (err) => this.destroy(err));
  }

  override _read(): void {
    this.socket.resume();
  }

  // Passed on at once, the whole batch in one socket write: the HTTP/2 layer
  // hands over a frame's header and data as separate chunks, and waiting for
  // each chunk's write to complete made a large answer (a relist of a thousand
  // containers, ~80 chunks) as many system calls and event-loop turns. The
  // socket's own buffer gives the back-pressure.
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.passOn(this.socket.write(chunk), cb);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.socket.cork();
    let ok = true;
    for (const { chunk } of chunks) ok = this.socket.write(chunk);
    this.socket.uncork();
    this.passOn(ok, cb);
  }

  private passOn(ok: boolean, cb: (err?: Error | null) => void): void {
    if (ok) cb();
    else this.socket.once('drain', () => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.socket.destroy();
    cb(err);
  }
}
