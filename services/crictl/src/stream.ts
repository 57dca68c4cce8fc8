// crictl exec's streaming path (cri-tools exec.go stream, client-go
// remotecommand): CRI Exec answers a URL on the runtime's streaming server;
// crictl upgrades to it and runs the remotecommand protocol — SPDY/3.1 with
// v4.channel.k8s.io by default (--transport spdy), or WebSocket with
// v5.channel.k8s.io (--transport websocket). stdin/stdout/stderr flow over
// their streams; the error stream's metav1.Status ends it: Success, or a
// NonZeroExitCode whose ExitCode cause becomes "command terminated with exit
// code N".

import { request as httpRequest } from 'node:http';
import type { Duplex, Readable, Writable } from 'node:stream';
import { HEADER_PROTOCOL_VERSION, SPDY_31, StreamHeader, attachSpdy, type SpdyStream } from '@kubelab/component-base';
import WebSocket from 'ws';
import { StreamError, decodeStatus } from './stream-status.js';

export interface StreamIO {
  stdin?: Readable;
  stdout: Writable;
  stderr: Writable;
  tty: boolean;
  /** The terminal's size now, and a way to hear of changes (a resize stream exists with a tty). */
  size?: () => { width: number; height: number } | undefined;
  onResize?: (f: () => void) => void;
}

const resizeBody = (s: { width: number; height: number }) => JSON.stringify({ Width: s.width, Height: s.height });

/** SPDY/3.1 + v4.channel.k8s.io (client-go's SPDY executor, crictl's default transport). */
export function streamSpdy(url: string, o: StreamIO): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { Connection: 'Upgrade', Upgrade: SPDY_31, [HEADER_PROTOCOL_VERSION]: ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] },
    });
    req.on('error', (e) => reject(new StreamError(`error sending request: ${e.message}`)));
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(new StreamError(`unable to upgrade connection: ${body.trim() || res.statusMessage}`)));
    });
    req.on('upgrade', (res, socket: Duplex, head: Buffer) => {
      const protocol = String(res.headers[HEADER_PROTOCOL_VERSION.toLowerCase()] ?? '');
      let errorText = '';
      let pending = 0;
      let finished = false;
      const conn = attachSpdy(socket, { role: 'client', onStream: (s) => s.reset(), onClose: () => done() }, head);
      const done = () => {
        if (finished) return;
        finished = true;
        if (o.stdin) o.stdin.unpipe();
        const err = protocol === 'v4.channel.k8s.io' ? decodeStatus(errorText) : errorText ? new StreamError(errorText) : undefined;
        if (err) reject(err);
        else resolve();
      };
      const open = (type: string): SpdyStream => conn.openStream({ [StreamHeader.streamType]: type });
      const errorStream = open('error');
      errorStream.on('data', (d: Buffer) => (errorText += d.toString()));
      const outputs: SpdyStream[] = [];
      if (o.stdin) {
        const s = open('stdin');
        o.stdin.pipe(s);
      }
      const out = open('stdout');
      out.pipe(o.stdout, { end: false });
      outputs.push(out);
      if (!o.tty) {
        const err = open('stderr');
        err.pipe(o.stderr, { end: false });
        outputs.push(err);
      }
      if (o.tty && protocol !== 'v2.channel.k8s.io' && protocol !== 'channel.k8s.io') {
        const resize = open('resize');
        const send = () => {
          const size = o.size?.();
          if (size) resize.write(resizeBody(size));
        };
        send();
        o.onResize?.(send);
      }
      // The end: the error stream and every output stream have finished.
      for (const s of [errorStream, ...outputs]) {
        pending++;
        s.on('error', () => {});
        s.once('end', () => {
          if (--pending === 0) {
            conn.goAway();
            socket.end();
            done();
          }
        });
        s.resume?.();
      }
      errorStream.resume();
    });
    req.end();
  });
}

const STDIN = 0;
const RESIZE = 4;
const CLOSE = 255;

/** WebSocket + v5.channel.k8s.io (v4 without the CLOSE signal), crictl --transport websocket. */
export function streamWebSocket(url: string, o: StreamIO): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    let errorText = '';
    ws.on('error', (e) => reject(new StreamError(`error sending request: ${e.message}`)));
    ws.on('unexpected-response', (_req, res) => reject(new StreamError(`unable to upgrade connection: ${res.statusMessage ?? res.statusCode}`)));
    ws.on('open', () => {
      if (o.stdin) {
        o.stdin.on('data', (d: Buffer) => ws.send(Buffer.concat([Buffer.from([STDIN]), d])));
        o.stdin.on('end', () => {
          if (ws.protocol === 'v5.channel.k8s.io') ws.send(Buffer.from([CLOSE, STDIN]));
        });
      }
      if (o.tty) {
        const send = () => {
          const size = o.size?.();
          if (size) ws.send(Buffer.concat([Buffer.from([RESIZE]), Buffer.from(resizeBody(size))]));
        };
        send();
        o.onResize?.(send);
      }
    });
    ws.on('message', (data: Buffer) => {
      const buf = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (buf.length === 0) return;
      const body = buf.subarray(1);
      if (buf[0] === 1) o.stdout.write(body);
      else if (buf[0] === 2) o.stderr.write(body);
      else if (buf[0] === 3) errorText += body.toString();
    });
    ws.on('close', () => {
      o.stdin?.pause();
      const err = decodeStatus(errorText);
      if (err) reject(err);
      else resolve();
    });
  });
}
