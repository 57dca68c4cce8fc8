// The shim's task API framing: JSON lines over its unix socket, in the role of
// upstream's ttrpc. A request `{"id":1,"method":"Kill","params":{...}}` gets
// `{"id":1,"result":...}` or `{"id":1,"error":{"message":"...","kind":"..."}}`;
// the shim pushes `{"event":"exit","params":{...}}` to every connected
// containerd (upstream's TaskExit). Lines are bounded: a peer that sends more
// than MAX_LINE_BYTES without a newline is cut off.

import type { Socket } from 'node:net';

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface Request {
  id: number;
  method: string;
  params?: unknown;
}
export interface Response {
  id: number;
  result?: unknown;
  error?: { message: string; kind?: string };
}
export interface Event {
  event: string;
  params?: unknown;
}
export type Message = Request | Response | Event;

/** Calls `onMessage` for each JSON line read from `socket`; a bad line or an oversized one ends the connection. */
export function readLines(socket: Socket, onMessage: (m: Message) => void): void {
  let buf = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line) continue;
      let msg: Message;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        socket.destroy();
        return;
      }
      onMessage(msg);
    }
    if (buf.length > MAX_LINE_BYTES) socket.destroy();
  });
}

export function send(socket: Socket, m: Message): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(m)}\n`);
}
