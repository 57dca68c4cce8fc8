// One client's SPDY connection on the streaming server for an exec or an
// attachment (upstream remotecommand's httpstream server, v1–v4
// channel.k8s.io): the client opens one stream per channel, named by its
// `streamtype` header (error, stdin, stdout, stderr, resize); the server
// accepts each, waits until all the request's streams are there, then drives
// the peer just as the WebSocket client does (client.ts). The end: the
// status on the error stream — a metav1.Status in JSON with v4, the failure
// message alone before — then FIN on every stream and GOAWAY.

import type { Duplex } from 'node:stream';
import { GoAwayStatus, StreamHeader, attachSpdy, type RemoteCommandSpdyProtocol, type SpdyConnection, type SpdyStream } from '@kubelab/component-base';
import type { StreamOptions } from './protocol.js';
import type { StreamPeer } from './client.js';

type StreamType = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';

/** The streams a request needs (upstream createStreams' expected count): error always, resize with a tty from v3 on. */
export function expectedStreams(o: StreamOptions, protocol: RemoteCommandSpdyProtocol): StreamType[] {
  const out: StreamType[] = ['error'];
  if (o.stdin) out.push('stdin');
  if (o.stdout) out.push('stdout');
  if (o.stderr && !o.tty) out.push('stderr');
  if (o.tty && (protocol === 'v3.channel.k8s.io' || protocol === 'v4.channel.k8s.io')) out.push('resize');
  return out;
}

/** What goes on the error stream at the end: v4 the Status as JSON, v1–v3 a failure's message (nothing on success). */
export function errorStreamPayload(status: { status: string; message?: string }, protocol: RemoteCommandSpdyProtocol): string {
  if (protocol === 'v4.channel.k8s.io') return JSON.stringify(status);
  return status.status === 'Success' ? '' : (status.message ?? '');
}

/** How long the client has to open its streams (upstream streamCreationTimeout). */
const STREAM_CREATION_TIMEOUT_MS = 30_000;

export class SpdyRemoteCommandClient {
  private readonly streams = new Map<StreamType, SpdyStream>();
  private gone: (() => void) | undefined;
  private readonly conn: SpdyConnection;
  private finished = false;

  /** Resolves once every expected stream is open; rejects when the client goes or takes too long. */
  static accept(socket: Duplex, head: Buffer, protocol: RemoteCommandSpdyProtocol, o: StreamOptions, closed: () => void): Promise<SpdyRemoteCommandClient> {
    return new Promise((resolve, reject) => {
      const c = new SpdyRemoteCommandClient(
        socket,
        head,
        protocol,
        closed,
        () => {
          clearTimeout(timer);
          resolve(c);
        },
        expectedStreams(o, protocol),
      );
      const timer = setTimeout(() => {
        reject(new Error('timed out waiting for client to create streams'));
        c.conn.goAway();
        socket.end();
      }, STREAM_CREATION_TIMEOUT_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        reject(new Error('the client closed the connection before creating its streams'));
      });
    });
  }

  private constructor(
    private readonly socket: Duplex,
    head: Buffer,
    private readonly protocol: RemoteCommandSpdyProtocol,
    closed: () => void,
    ready: () => void,
    expected: StreamType[],
  ) {
    this.conn = attachSpdy(
      socket,
      {
        role: 'server',
        onStream: (s) => {
          const type = s.headers[StreamHeader.streamType] as StreamType | undefined;
          if (!type || !expected.includes(type) || this.streams.has(type)) return s.reset();
          s.on('error', () => {});
          s.reply();
          this.streams.set(type, s);
          if (expected.every((t) => this.streams.has(t))) ready();
        },
        onClose: () => {
          closed();
          this.gone?.();
        },
      },
      head,
    );
  }

  /** Data to the client on channel 1 (stdout) or 2 (stderr). */
  send(channel: number, data: string | Buffer): void {
    const s = this.streams.get(channel === 1 ? 'stdout' : channel === 2 ? 'stderr' : 'error');
    if (s && s.writable) s.write(data);
  }

  /** The last word: the status on the error stream, FIN everywhere, GOAWAY, and the connection ends. */
  finish(status: { status: string; message?: string }): void {
    if (this.finished) return;
    this.finished = true;
    const payload = errorStreamPayload(status, this.protocol);
    const err = this.streams.get('error');
    if (err && payload) err.write(payload);
    for (const s of this.streams.values()) if (s.writable) s.end();
    this.conn.goAway(GoAwayStatus.OK);
    this.socket.end();
  }

  /** Feeds stdin, its FIN and resizes to `peer`; `gone` runs when the client goes away. */
  serve(peer: StreamPeer, gone: () => void): void {
    this.gone = gone;
    const stdin = this.streams.get('stdin');
    stdin?.on('data', (d: Buffer) => peer.input(d.toString('utf8')));
    stdin?.on('end', () => peer.closeInput());
    this.streams.get('resize')?.on('data', () => peer.resize?.());
  }
}
