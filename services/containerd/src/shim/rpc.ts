// The shim's task API framing: JSON lines over its unix socket, in the role of
// upstream's ttrpc. A request `{"id":1,"method":"Kill","params":{...}}` gets
// `{"id":1,"result":...}` or `{"id":1,"error":{"message":"...","kind":"..."}}`;
// the shim pushes `{"event":"exit","params":{...}}` to every connected
// containerd (upstream's TaskExit). Lines are bounded: a peer that sends more
// than MAX_LINE_BYTES without a newline is cut off.

import { connect, type Socket } from 'node:net';

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

/** The client end of a JSON-lines connection: calls with ids, events to `onEvent`, `onClose` once it ends. */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    readonly socket: Socket,
    onEvent: (e: Event) => void,
    onClose: () => void,
    toError: (e: { message: string; kind?: string }) => Error = (e) => new Error(e.message),
  ) {
    readLines(socket, (m) => {
      if ('event' in m) return onEvent(m);
      const r = m as Response;
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.error) p.reject(toError(r.error));
      else p.resolve(r.result);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('ttrpc: closed'));
      this.pending.clear();
      onClose();
    });
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }

  /** `timeoutMs`: the call's deadline (upstream passes the request's context to ttrpc); past it the call fails and its late answer is dropped. */
  call<T>(method: string, params?: unknown, timeoutMs?: number): Promise<T> {
    if (this.socket.destroyed) return Promise.reject(new Error('ttrpc: closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (timeoutMs === undefined) {
        this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      } else {
        const timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new Error(`${method}: context deadline exceeded`));
        }, timeoutMs);
        const done =
          <A>(f: (a: A) => void) =>
          (a: A) => {
            clearTimeout(timer);
            f(a);
          };
        this.pending.set(id, { resolve: done(resolve as (v: unknown) => void), reject: done(reject) });
      }
      send(this.socket, { id, method, params });
    });
  }
}

/** Connects to a unix socket; rejects when nothing listens there. */
export function dial(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    s.once('connect', () => {
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}
