// A SPDY/3.1 connection and its streams (moby/spdystream's Connection and
// Stream, as k8s.io/apimachinery httpstream/spdy uses them): each side opens
// streams with SYN_STREAM (client odd ids, server even), the other accepts
// with SYN_REPLY; data frames carry bytes and FIN half-closes a stream;
// RST_STREAM ends one at once, GOAWAY the connection; PINGs from the peer are
// echoed. Like spdystream, no flow control is enforced (WINDOW_UPDATE and
// SETTINGS are read and ignored). The connection only turns bytes into frames
// and frames into stream events: the transport is whatever `write` and
// `receive` are wired to (attachSpdy does it for a socket).

import { Duplex } from 'node:stream';
import { FLAG_FIN, FrameReader, GoAwayStatus, HeaderCompressor, HeaderDecompressor, RstStatus, SpdyProtocolError, encodeFrame, type Frame, type Headers } from './spdy-frames.js';

/** Data frames are cut at this size (spdystream's writers use 32 KiB buffers too). */
const MAX_DATA_FRAME = 32 * 1024;
const DEFAULT_MAX_STREAMS = 1000;

export interface SpdyConnectionOptions {
  role: 'client' | 'server';
  /** Sends bytes to the peer; false asks the writers to wait for drained(). */
  write: (chunk: Buffer) => boolean;
  /** The peer opened a stream: reply() accepts it, reset() refuses it. */
  onStream?: (stream: SpdyStream) => void;
  /** The connection ended (GOAWAY, a protocol error, or close()). */
  onClose?: (err?: Error) => void;
  /** Streams open at once before new ones are refused (REFUSED_STREAM). */
  maxStreams?: number;
  /** The largest frame accepted. */
  maxFrameBytes?: number;
}

export class SpdyStream extends Duplex {
  /** The peer's SYN_REPLY headers, once it accepted a stream we opened. */
  replyHeaders: Headers | undefined;
  private localClosed = false;
  private remoteClosed = false;
  private replied: boolean;

  constructor(
    private readonly conn: SpdyConnection,
    readonly id: number,
    /** The headers of the SYN_STREAM that opened it. */
    readonly headers: Headers,
    incoming: boolean,
  ) {
    super({ allowHalfOpen: true });
    this.replied = !incoming;
  }

  /** Accepts a stream the peer opened (spdystream SendReply); `fin` also ends our half. */
  reply(headers: Headers = {}, fin = false): void {
    if (this.replied || this.destroyed) return;
    this.replied = true;
    this.conn.send({ type: 'syn_reply', streamId: this.id, flags: fin ? FLAG_FIN : 0, headers });
    if (fin) this.halfClose();
  }

  /** Ends the stream at once in both directions (RST_STREAM). */
  reset(status: number = RstStatus.CANCEL): void {
    if (this.destroyed) return;
    this.conn.send({ type: 'rst_stream', streamId: this.id, status });
    this.conn.forget(this.id);
    this.destroy();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    if (this.localClosed) return cb(new Error(`spdy stream ${this.id} is closed for writing`));
    let ok = true;
    for (let i = 0; i < chunk.length; i += MAX_DATA_FRAME) ok = this.conn.send({ type: 'data', streamId: this.id, flags: 0, data: chunk.subarray(i, i + MAX_DATA_FRAME) }) && ok;
    if (ok) cb();
    else this.conn.whenDrained(() => cb());
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (!this.localClosed) {
      this.conn.send({ type: 'data', streamId: this.id, flags: FLAG_FIN, data: Buffer.alloc(0) });
      this.halfClose();
    }
    cb();
  }

  /** The peer sent bytes or FIN on this stream (called by the connection). */
  _remoteData(data: Buffer, fin: boolean): void {
    if (this.remoteClosed) return this.reset(RstStatus.STREAM_ALREADY_CLOSED);
    if (data.length) this.push(data);
    if (fin) {
      this.remoteClosed = true;
      this.push(null);
      this.maybeForget();
    }
  }

  _remoteReply(headers: Headers, fin: boolean): void {
    this.replyHeaders = headers;
    this.emit('reply', headers);
    if (fin) this._remoteData(Buffer.alloc(0), true);
  }

  /** The peer reset the stream or the connection went away. */
  _remoteReset(err: Error): void {
    this.remoteClosed = this.localClosed = true;
    this.destroy(err);
  }

  /** Whether the peer finished its half (FIN). */
  get remoteEnded(): boolean {
    return this.remoteClosed;
  }

  private halfClose(): void {
    this.localClosed = true;
    this.maybeForget();
  }

  private maybeForget(): void {
    if (this.localClosed && this.remoteClosed) this.conn.forget(this.id);
  }
}

export class SpdyConnection {
  private readonly compressor = new HeaderCompressor();
  private readonly reader: FrameReader;
  private readonly streams = new Map<number, SpdyStream>();
  private nextId: number;
  private lastPeerId = 0;
  private closed = false;
  /** The peer sent GOAWAY: the connection ends when its last stream does. */
  private goneAway = false;
  private drainWaiters: (() => void)[] = [];

  constructor(private readonly opts: SpdyConnectionOptions) {
    this.nextId = opts.role === 'client' ? 1 : 2;
    this.reader = new FrameReader(new HeaderDecompressor(), opts.maxFrameBytes);
  }

  /** Streams currently open. */
  get size(): number {
    return this.streams.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Opens a stream (SYN_STREAM); its 'reply' event carries the peer's acceptance. */
  openStream(headers: Headers, opts: { fin?: boolean } = {}): SpdyStream {
    if (this.closed) throw new Error('spdy connection is closed');
    const id = this.nextId;
    this.nextId += 2;
    const s = new SpdyStream(this, id, headers, false);
    this.streams.set(id, s);
    this.send({ type: 'syn_stream', streamId: id, associatedId: 0, priority: 0, flags: opts.fin ? FLAG_FIN : 0, headers });
    if (opts.fin) s.end();
    return s;
  }

  /** Bytes from the transport. A protocol error ends the connection with GOAWAY PROTOCOL_ERROR. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    try {
      for (const f of this.reader.push(chunk)) {
        this.handle(f);
        if (this.closed) return;
      }
    } catch (e) {
      if (!(e instanceof SpdyProtocolError)) throw e;
      this.goAway(GoAwayStatus.PROTOCOL_ERROR);
      this.close(e);
    }
  }

  /** Tells the peer no new streams will be accepted (GOAWAY). */
  goAway(status: number = GoAwayStatus.OK): void {
    if (!this.closed) this.send({ type: 'goaway', lastGoodStreamId: this.lastPeerId, status });
  }

  /** Ends every stream the peer had not finished (those it had keep what they read); the transport is the caller's to close. */
  close(err?: Error): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) if (!s.remoteEnded) s._remoteReset(err ?? new Error('spdy connection closed'));
    this.streams.clear();
    this.drained();
    this.opts.onClose?.(err);
  }

  /** The transport can take more bytes: writers waiting on it go on. */
  drained(): void {
    const w = this.drainWaiters;
    this.drainWaiters = [];
    for (const f of w) f();
  }

  /** @internal */
  send(f: Frame): boolean {
    if (this.closed) return true;
    return this.opts.write(encodeFrame(f, this.compressor));
  }

  /** @internal */
  whenDrained(f: () => void): void {
    if (this.closed) f();
    else this.drainWaiters.push(f);
  }

  /** @internal */
  forget(id: number): void {
    this.streams.delete(id);
    if (this.goneAway && this.streams.size === 0) this.close();
  }

  private handle(f: Frame): void {
    switch (f.type) {
      case 'syn_stream':
        return this.onSynStream(f);
      case 'syn_reply': {
        const s = this.streams.get(f.streamId);
        if (!s) return void this.send({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.INVALID_STREAM });
        return s._remoteReply(f.headers, (f.flags & FLAG_FIN) !== 0);
      }
      case 'data': {
        const s = this.streams.get(f.streamId);
        if (!s) return void this.send({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.INVALID_STREAM });
        return s._remoteData(f.data, (f.flags & FLAG_FIN) !== 0);
      }
      case 'headers': {
        const s = this.streams.get(f.streamId);
        if (s && f.flags & FLAG_FIN) s._remoteData(Buffer.alloc(0), true);
        return;
      }
      case 'rst_stream': {
        const s = this.streams.get(f.streamId);
        if (!s) return;
        this.streams.delete(f.streamId);
        return s._remoteReset(new Error(`spdy stream ${f.streamId} reset by peer (status ${f.status})`));
      }
      case 'ping':
        // Only the peer's pings (odd ids from a client, even from a server) are echoed; ours coming back end there.
        if ((f.id % 2 === 1) === (this.opts.role === 'server')) this.send(f);
        return;
      case 'goaway':
        // No new streams; those open run to their end (spdystream waits for them too).
        this.goneAway = true;
        if (this.streams.size === 0) this.close();
        return;
      case 'settings':
      case 'window_update':
        return;
    }
  }

  private onSynStream(f: Extract<Frame, { type: 'syn_stream' }>): void {
    const peerParity = this.opts.role === 'server' ? 1 : 0;
    if (f.streamId === 0 || f.streamId % 2 !== peerParity || f.streamId <= this.lastPeerId) {
      throw new SpdyProtocolError(`invalid stream id ${f.streamId}`);
    }
    this.lastPeerId = f.streamId;
    if (this.streams.size >= (this.opts.maxStreams ?? DEFAULT_MAX_STREAMS)) {
      return void this.send({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.REFUSED_STREAM });
    }
    const s = new SpdyStream(this, f.streamId, f.headers, true);
    this.streams.set(f.streamId, s);
    if (f.flags & FLAG_FIN) s._remoteData(Buffer.alloc(0), true);
    if (this.opts.onStream) this.opts.onStream(s);
    else s.reset(RstStatus.REFUSED_STREAM);
  }
}

/** Runs a SPDY connection over an upgraded socket: bytes both ways, backpressure, and the end of either side ending the other. */
export function attachSpdy(socket: Duplex, opts: Omit<SpdyConnectionOptions, 'write'>, head?: Buffer): SpdyConnection {
  const conn = new SpdyConnection({
    ...opts,
    write: (chunk) => (socket.writable ? socket.write(chunk) : true),
    onClose: (err) => {
      opts.onClose?.(err);
      socket.end();
    },
  });
  socket.on('data', (chunk: Buffer) => conn.receive(chunk));
  socket.on('drain', () => conn.drained());
  socket.on('close', () => conn.close());
  socket.on('end', () => conn.close());
  socket.on('error', () => socket.destroy());
  if (head?.length) conn.receive(head);
  return conn;
}
