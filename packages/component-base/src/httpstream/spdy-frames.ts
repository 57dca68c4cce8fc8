// SPDY/3.1 framing as Kubernetes' streaming connections speak it (moby/spdystream
// under k8s.io/apimachinery httpstream/spdy): control frames (SYN_STREAM,
// SYN_REPLY, RST_STREAM, SETTINGS, PING, GOAWAY, HEADERS, WINDOW_UPDATE), data
// frames, and name/value header blocks compressed with one zlib context per
// direction primed with the SPDY/3 dictionary. Written by hand: no maintained
// npm SPDY library runs on current Node (node-spdy is abandoned).

import { Deflate, Inflate, Z_SYNC_FLUSH } from 'pako';

export const SPDY_VERSION = 3;

export const FrameType = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9,
} as const;

/** FLAG_FIN on data, SYN_STREAM, SYN_REPLY and HEADERS: the sender's half of the stream ends. */
export const FLAG_FIN = 0x01;
/** FLAG_UNIDIRECTIONAL on SYN_STREAM. */
export const FLAG_UNIDIRECTIONAL = 0x02;

/** RST_STREAM status codes (SPDY/3 section 2.6.2). */
export const RstStatus = {
  PROTOCOL_ERROR: 1,
  INVALID_STREAM: 2,
  REFUSED_STREAM: 3,
  UNSUPPORTED_VERSION: 4,
  CANCEL: 5,
  INTERNAL_ERROR: 6,
  FLOW_CONTROL_ERROR: 7,
  STREAM_IN_USE: 8,
  STREAM_ALREADY_CLOSED: 9,
  FRAME_TOO_LARGE: 11,
} as const;

/** GOAWAY status codes. */
export const GoAwayStatus = { OK: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2 } as const;

/** Header names on the wire are lowercase; a value with several entries joins them with NUL. */
export type Headers = Record<string, string>;

export type Frame =
  | { type: 'data'; streamId: number; flags: number; data: Buffer }
  | { type: 'syn_stream'; streamId: number; associatedId: number; priority: number; flags: number; headers: Headers }
  | { type: 'syn_reply'; streamId: number; flags: number; headers: Headers }
  | { type: 'rst_stream'; streamId: number; status: number }
  | { type: 'settings'; flags: number; entries: { flags: number; id: number; value: number }[] }
  | { type: 'ping'; id: number }
  | { type: 'goaway'; lastGoodStreamId: number; status: number }
  | { type: 'headers'; streamId: number; flags: number; headers: Headers }
  | { type: 'window_update'; streamId: number; delta: number };

/** A violation of the framing; the connection cannot go on (GOAWAY PROTOCOL_ERROR). */
export class SpdyProtocolError extends Error {
  override name = 'SpdyProtocolError';
}

// The SPDY/3 header compression dictionary (draft-mbelshe-httpbis-spdy-00 section 2.6.10.1):
// length-prefixed common header words, then a run of status texts, dates and media types.
const DICTIONARY_WORDS = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow',
  'authorization', 'cache-control', 'connection', 'content-base', 'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5',
  'content-range', 'content-type', 'date', 'etag', 'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match', 'if-range',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after',
  'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning', 'www-authenticate', 'method', 'get', 'status', '200 OK',
  'version', 'HTTP/1.1', 'url', 'public', 'set-cookie', 'keep-alive', 'origin',
]; // prettier-ignore
const DICTIONARY_TAIL =
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505' +
  '203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized403 Forbidden404 Not Found' +
  '500 Internal Server Error501 Not Implemented503 Service Unavailable' +
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT' +
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,text/javascript,' +
  'publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.';

export const SPDY3_DICTIONARY: Uint8Array = Buffer.concat([
  ...DICTIONARY_WORDS.map((w) => {
    const b = Buffer.alloc(4 + w.length);
    b.writeUInt32BE(w.length, 0);
    b.write(w, 4, 'latin1');
    return b;
  }),
  Buffer.from(DICTIONARY_TAIL, 'latin1'),
]);

/** Encodes a name/value header block (before compression): count, then length-prefixed names and values. */
export function encodeHeaderBlock(headers: Headers): Buffer {
  const parts: Buffer[] = [];
  const n = Buffer.alloc(4);
  const entries = Object.entries(headers);
  n.writeUInt32BE(entries.length, 0);
  parts.push(n);
  for (const [name, value] of entries) {
    for (const s of [name.toLowerCase(), value]) {
      const b = Buffer.from(s, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(b.length, 0);
      parts.push(len, b);
    }
  }
  return Buffer.concat(parts);
}

/** Decodes an uncompressed header block; names must be lowercase and unique, as spdystream's framer checks. */
export function decodeHeaderBlock(b: Buffer): Headers {
  let off = 0;
  const u32 = () => {
    if (off + 4 > b.length) throw new SpdyProtocolError('truncated header block');
    const v = b.readUInt32BE(off);
    off += 4;
    return v;
  };
  const str = () => {
    const len = u32();
    if (off + len > b.length) throw new SpdyProtocolError('truncated header block');
    const s = b.toString('utf8', off, off + len);
    off += len;
    return s;
  };
  const count = u32();
  const out: Headers = Object.create(null) as Headers;
  for (let i = 0; i < count; i++) {
    const name = str();
    const value = str();
    if (name === '' || name !== name.toLowerCase()) throw new SpdyProtocolError(`invalid header name ${JSON.stringify(name)}`);
    if (name in out) throw new SpdyProtocolError(`duplicate header ${JSON.stringify(name)}`);
    out[name] = value;
  }
  return out;
}

/** The sending half's zlib context: one stream for the whole connection, each block ending on a sync flush. */
export class HeaderCompressor {
  private readonly deflate = new Deflate({ level: 9, dictionary: SPDY3_DICTIONARY });
  private chunks: Uint8Array[] = [];

  constructor() {
    this.deflate.onData = (c) => this.chunks.push(c);
  }

  compress(headers: Headers): Buffer {
    this.chunks = [];
    this.deflate.push(encodeHeaderBlock(headers), Z_SYNC_FLUSH);
    if (this.deflate.err) throw new SpdyProtocolError(`header compression failed: ${this.deflate.msg}`);
    return Buffer.concat(this.chunks);
  }
}

/** The receiving half's zlib context; output per block is bounded (no header bomb). */
export class HeaderDecompressor {
  private readonly inflate = new Inflate({ dictionary: SPDY3_DICTIONARY });
  private chunks: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxBytes = 1 << 20) {
    this.inflate.onData = (c) => {
      this.size += c.length;
      if (this.size > this.maxBytes) throw new SpdyProtocolError(`header block larger than ${this.maxBytes} bytes`);
      this.chunks.push(c);
    };
  }

  decompress(block: Buffer): Headers {
    this.chunks = [];
    this.size = 0;
    this.inflate.push(block, Z_SYNC_FLUSH);
    if (this.inflate.err) throw new SpdyProtocolError(`header decompression failed: ${this.inflate.msg}`);
    return decodeHeaderBlock(Buffer.concat(this.chunks));
  }
}

const CONTROL_TYPES: Record<number, Frame['type']> = {
  1: 'syn_stream',
  2: 'syn_reply',
  3: 'rst_stream',
  4: 'settings',
  6: 'ping',
  7: 'goaway',
  8: 'headers',
  9: 'window_update',
};

function control(type: number, flags: number, body: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  h.writeUInt16BE(type, 2);
  h.writeUInt32BE(((flags & 0xff) << 24) | body.length, 4);
  return Buffer.concat([h, body]);
}

function u32s(...vs: number[]): Buffer {
  const b = Buffer.alloc(4 * vs.length);
  vs.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** Encodes one frame; header blocks go through the connection's compressor. */
export function encodeFrame(f: Frame, compressor: HeaderCompressor): Buffer {
  switch (f.type) {
    case 'data': {
      const h = Buffer.alloc(8);
      h.writeUInt32BE(f.streamId & 0x7fffffff, 0);
      h.writeUInt32BE(((f.flags & 0xff) << 24) | f.data.length, 4);
      return Buffer.concat([h, f.data]);
    }
    case 'syn_stream': {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(f.streamId & 0x7fffffff, 0);
      fixed.writeUInt32BE(f.associatedId & 0x7fffffff, 4);
      fixed[8] = (f.priority & 0x7) << 5;
      return control(FrameType.SYN_STREAM, f.flags, Buffer.concat([fixed, compressor.compress(f.headers)]));
    }
    case 'syn_reply':
      return control(FrameType.SYN_REPLY, f.flags, Buffer.concat([u32s(f.streamId & 0x7fffffff), compressor.compress(f.headers)]));
    case 'headers':
      return control(FrameType.HEADERS, f.flags, Buffer.concat([u32s(f.streamId & 0x7fffffff), compressor.compress(f.headers)]));
    case 'rst_stream':
      return control(FrameType.RST_STREAM, 0, u32s(f.streamId & 0x7fffffff, f.status));
    case 'settings': {
      const body = Buffer.alloc(4 + 8 * f.entries.length);
      body.writeUInt32BE(f.entries.length, 0);
      f.entries.forEach((e, i) => {
        body.writeUInt32BE(((e.flags & 0xff) << 24) | (e.id & 0xffffff), 4 + 8 * i);
        body.writeUInt32BE(e.value >>> 0, 8 + 8 * i);
      });
      return control(FrameType.SETTINGS, f.flags, body);
    }
    case 'ping':
      return control(FrameType.PING, 0, u32s(f.id));
    case 'goaway':
      return control(FrameType.GOAWAY, 0, u32s(f.lastGoodStreamId & 0x7fffffff, f.status));
    case 'window_update':
      return control(FrameType.WINDOW_UPDATE, 0, u32s(f.streamId & 0x7fffffff, f.delta & 0x7fffffff));
  }
}

/** The fixed length a control frame's body must have at least. */
const MIN_BODY: Partial<Record<Frame['type'], number>> = { syn_stream: 10, syn_reply: 4, headers: 4, rst_stream: 8, settings: 4, ping: 4, goaway: 8, window_update: 8 };

/**
 * Splits a byte stream into frames as they complete (spdystream's framer
 * reading a connection). Frames longer than `maxFrameBytes` are a protocol
 * error, so a peer cannot make the reader buffer without bound. Unknown
 * control frame types are skipped, as the spec asks.
 */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(
    private readonly decompressor: HeaderDecompressor,
    private readonly maxFrameBytes = 1 << 20,
  ) {}

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Frame[] = [];
    for (;;) {
      if (this.buf.length < 8) break;
      const len = this.buf.readUInt32BE(4) & 0xffffff;
      if (len > this.maxFrameBytes) throw new SpdyProtocolError(`frame of ${len} bytes exceeds the limit of ${this.maxFrameBytes}`);
      if (this.buf.length < 8 + len) break;
      const head = this.buf.subarray(0, 8);
      const body = Buffer.from(this.buf.subarray(8, 8 + len));
      this.buf = this.buf.subarray(8 + len);
      const f = this.decode(head, body);
      if (f) out.push(f);
    }
    return out;
  }

  private decode(head: Buffer, body: Buffer): Frame | undefined {
    const flags = head[4]!;
    if ((head[0]! & 0x80) === 0) return { type: 'data', streamId: head.readUInt32BE(0) & 0x7fffffff, flags, data: body };
    const version = head.readUInt16BE(0) & 0x7fff;
    if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
    const type = CONTROL_TYPES[head.readUInt16BE(2)];
    if (!type) return undefined;
    if (body.length < (MIN_BODY[type] ?? 0)) throw new SpdyProtocolError(`${type} frame too short (${body.length} bytes)`);
    const id = body.readUInt32BE(0) & 0x7fffffff;
    switch (type) {
      case 'syn_stream':
        return { type, streamId: id, associatedId: body.readUInt32BE(4) & 0x7fffffff, priority: body[8]! >> 5, flags, headers: this.decompressor.decompress(body.subarray(10)) };
      case 'syn_reply':
      case 'headers':
        return { type, streamId: id, flags, headers: this.decompressor.decompress(body.subarray(4)) };
      case 'rst_stream':
        return { type, streamId: id, status: body.readUInt32BE(4) };
      case 'settings': {
        const n = body.readUInt32BE(0);
        if (body.length < 4 + 8 * n) throw new SpdyProtocolError('settings frame too short');
        const entries = Array.from({ length: n }, (_, i) => ({ flags: body[4 + 8 * i]!, id: body.readUInt32BE(4 + 8 * i) & 0xffffff, value: body.readUInt32BE(8 + 8 * i) }));
        return { type, flags, entries };
      }
      case 'ping':
        return { type, id: body.readUInt32BE(0) };
      case 'goaway':
        return { type, lastGoodStreamId: id, status: body.readUInt32BE(4) };
      case 'window_update':
        return { type, streamId: id, delta: body.readUInt32BE(4) & 0x7fffffff };
      default:
        return undefined;
    }
  }
}
