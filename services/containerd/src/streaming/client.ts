// One client's WebSocket on the streaming server, the same for an exec and an
// attachment: frames from the client drive a peer (the exec session or the
// attachment), output goes back on channels 1 and 2, and the end is one
// metav1.Status on the error channel followed by a normal close.

import type { RawData, WebSocket } from 'ws';
import type { Chunk } from '../output.js';
import { ERROR, RESIZE, STDIN, frame, parseFrame, type Protocol } from './protocol.js';

/** What the client's frames drive. */
export interface StreamPeer {
  /** Stdin bytes as the client sent them. */
  input(data: Buffer): void;
  closeInput(): void;
  /** The client's terminal was resized; without it sizes are accepted and ignored. */
  resize?(): void;
}

export class ClientSocket {
  private gone: (() => void) | undefined;

  /** `closed` runs when the socket closes, served or not. */
  constructor(
    private readonly ws: WebSocket,
    private readonly protocol: Protocol,
    closed: () => void,
  ) {
    ws.on('close', () => {
      closed();
      this.gone?.();
    });
    // Listened to from the start: an unheard 'error' event would throw; the close follows it.
    ws.on('error', () => this.gone?.());
  }

  /** Data to the client on `channel`, while the socket is open. */
  send(channel: number, data: Chunk): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(frame(channel, typeof data === 'string' ? data : Buffer.from(data)));
  }

  /** The last word: `status` on the error channel, then close. */
  finish(status: object): void {
    this.send(ERROR, JSON.stringify(status));
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
  }

  /** Feeds the client's stdin, CLOSE and resize frames to `peer`; `gone` runs when the client goes away. */
  serve(peer: StreamPeer, gone: () => void): void {
    this.gone = gone;
    this.ws.on('message', (data: RawData) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      const f = parseFrame(buf, this.protocol);
      if (f.kind === 'close' && f.channel === STDIN) peer.closeInput();
      else if (f.kind === 'data' && f.channel === STDIN) peer.input(f.data);
      else if (f.kind === 'data' && f.channel === RESIZE) peer.resize?.();
    });
  }
}
