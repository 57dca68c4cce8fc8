// The runtime's streaming server (containerd's CRI stream server on
// stream_server_address:stream_server_port, 127.0.0.1 and a free port by
// default): CRI Exec and Attach answer a one-time URL `/exec/<token>` or
// `/attach/<token>` here; the kubelet proxies the client's upgrade to it and
// the exec or attachment (attach.ts) runs over the remotecommand WebSocket
// protocol (v5.channel.k8s.io, or v4 without CLOSE) or over SPDY/3.1
// (v4…v1 channel.k8s.io, spdy-client.ts, kubectl up to 1.29). CRI
// PortForward's `/portforward/<token>` forwards a pod's ports
// (portforward.ts), over SPDY (portforward.k8s.io) or WebSocket.
// Tokens expire after a minute unused and work once, as upstream's request
// cache.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  HEADER_ACCEPTED_PROTOCOL_VERSIONS,
  HEADER_PROTOCOL_VERSION,
  PORT_FORWARD_PROTOCOL,
  REMOTECOMMAND_SPDY_PROTOCOLS,
  SPDY_31,
  headerValues,
  negotiateStreamProtocol,
  spdyUpgradeResponse,
  type RemoteCommandSpdyProtocol,
} from '@kubelab/component-base';
import { SUPPORTED_PROTOCOLS, exitStatus, failureStatus, negotiate, type Protocol, type StreamOptions, type StreamStatus } from './protocol.js';
import { ClientSocket, type StreamPeer } from './client.js';
import { SpdyRemoteCommandClient } from './spdy-client.js';
import { servePortForwardSpdy, servePortForwardWebSocket, type PortDialer } from './portforward.js';
import type { Chunk } from '../output.js';
import type { Attachment } from './attach.js';
import { ExecSession, busyboxPrompt, type ExecTarget } from './session.js';
import { joinHostPort } from '@kubelab/api';

/** A CRI ExecRequest, validated. */
export interface ExecRequest extends StreamOptions {
  containerId: string;
  cmd: string[];
}

/** A CRI AttachRequest, validated. */
export interface AttachRequest extends StreamOptions {
  containerId: string;
}

/** A CRI PortForwardRequest: the ports a WebSocket client gets (a SPDY client names its own per stream). */
export interface PortForwardRequest {
  podSandboxId: string;
  port: number[];
}

type Pending =
  | { kind: 'exec'; req: ExecRequest }
  | { kind: 'attach'; req: AttachRequest }
  | { kind: 'portforward'; req: PortForwardRequest }
  /** A stream a container's shim serves at `target` (its one-time URL): the connection is passed through. */
  | { kind: 'exec' | 'attach'; proxy: string };

/** A connected client of an exec or attachment, whichever transport it came over. */
interface StreamClient {
  send(channel: number, data: Chunk): void;
  finish(status: StreamStatus): void;
  serve(peer: StreamPeer, gone: () => void): void;
}

/** How long a WebSocket stream waits before its process runs (see the upgrade handler). */
const PROCESS_START_MS = 20;

/** A client whose output (data and the final status) leaves only after `ms`, in order; its input flows at once. */
function holdOutput(client: StreamClient, ms: number): StreamClient {
  let held: Array<() => void> | undefined = [];
  setTimeout(() => {
    const queued = held ?? [];
    held = undefined;
    for (const f of queued) f();
  }, ms);
  const later = (f: () => void) => (held ? held.push(f) : f());
  return {
    send: (channel, data) => later(() => client.send(channel, data)),
    finish: (status) => later(() => client.finish(status)),
    serve: (peer, gone) => client.serve(peer, gone),
  };
}

/** The WebSocket subprotocols of port forwarding (upstream portforward/websocket.go; none offered is binary too). */
const PORT_FORWARD_WS_PROTOCOLS = ['v4.channel.k8s.io'];

export interface StreamingServerOptions {
  /** Bind address and the host of the URLs handed out (default 127.0.0.1). */
  host?: string;
  /** 0 picks a free port (containerd's default). */
  port?: number;
  /** Resolves the container's process when the client connects (it may have exited since Exec). */
  target: (containerId: string) => ExecTarget & { prompt?: (cwd: string) => string };
  /** Attaches a client to the container's main process when it connects (throws when it is not running). */
  attach?: (req: AttachRequest, write: (channel: 1 | 2, data: Chunk) => void) => Attachment;
  /** Connects to a pod sandbox's port for port forwarding (throws the runtime's reason). */
  portForward?: PortDialer;
  /** How long an unused URL stays valid (upstream: 1 minute). */
  tokenTtlMs?: number;
  now?: () => number;
  onError?: (msg: string, fields: Record<string, unknown>) => void;
}

const DEFAULT_TTL_MS = 60_000;
const MAX_PENDING = 1000;

export class StreamingServer {
  private readonly pending = new Map<string, Pending & { expires: number }>();
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (offered) => negotiate(offered) ?? false });
  private readonly portForwardWss = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (offered) => PORT_FORWARD_WS_PROTOCOLS.find((p) => offered.has(p)) ?? false });
  private readonly sockets = new Set<WebSocket>();
  private readonly spdySockets = new Set<Duplex>();
  private readonly now: () => number;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly opts: StreamingServerOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  static async start(opts: StreamingServerOptions): Promise<StreamingServer> {
    const host = opts.host ?? '127.0.0.1';
    const server = createServer((req, res) => {
      // A plain request cannot carry a stream.
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(/^\/(exec|attach|portforward)\//.test(req.url ?? '') ? `unable to upgrade: missing upgrade headers in request: ${JSON.stringify(req.headers)}` : '404 page not found\n');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const s = new StreamingServer(server, `http://${joinHostPort(host, port)}`, opts);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => s.upgrade(req, socket, head));
    return s;
  }

  /** CRI Exec: registers the request and returns its one-time URL. */
  getExec(req: ExecRequest): string {
    return this.insert({ kind: 'exec', req });
  }

  /** CRI Attach: registers the request and returns its one-time URL. */
  getAttach(req: AttachRequest): string {
    return this.insert({ kind: 'attach', req });
  }

  /**
   * CRI Exec or Attach of a container in a shim: the shim serves the stream
   * at `target`; the URL handed out is this server's, as upstream's (the
   * stream server is containerd's), and the upgrade is passed through.
   */
  getProxied(kind: 'exec' | 'attach', target: string): string {
    return this.insert({ kind, proxy: target });
  }

  /** CRI PortForward: registers the request and returns its one-time URL. */
  getPortForward(req: PortForwardRequest): string {
    return this.insert({ kind: 'portforward', req });
  }

  private insert(p: Pending): string {
    this.prune();
    if (this.pending.size >= MAX_PENDING) throw new Error(`too many pending streaming requests (${MAX_PENDING})`);
    const token = randomBytes(8).toString('base64url');
    this.pending.set(token, { ...p, expires: this.now() + (this.opts.tokenTtlMs ?? DEFAULT_TTL_MS) } as Pending & { expires: number });
    return `${this.baseUrl}/${p.kind}/${token}`;
  }

  private prune(): void {
    const now = this.now();
    for (const [t, p] of this.pending) if (p.expires <= now) this.pending.delete(t);
  }

  private consume(kind: string, token: string): Pending | undefined {
    const p = this.pending.get(token);
    if (!p || p.kind !== kind) return undefined;
    this.pending.delete(token);
    return p.expires > this.now() ? p : undefined;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refuse = (code: number, reason: string, body: string) => {
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    };
    const m = /^\/(exec|attach|portforward)\/([A-Za-z0-9_-]+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    const stream = m ? this.consume(m[1]!, m[2]!) : undefined;
    if (!stream) return refuse(404, 'Not Found', '404 page not found\n');
    if ('proxy' in stream) return this.passThrough(req, socket, head, stream.proxy, refuse);
    const upgrade = (req.headers.upgrade ?? '').toLowerCase();
    if (upgrade === SPDY_31.toLowerCase()) return this.upgradeSpdy(req, socket, head, stream, refuse);
    if (upgrade !== 'websocket') return refuse(400, 'Bad Request', `unable to upgrade: the server does not support the ${req.headers.upgrade} protocol\n`);
    if (stream.kind === 'portforward') {
      const { req: pf } = stream;
      return this.portForwardWss.handleUpgrade(req, socket, head, (ws) => {
        this.track(ws);
        servePortForwardWebSocket(ws, pf.podSandboxId, pf.port, this.dialer());
      });
    }
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const protocol = negotiate(offered);
    if (!protocol) return refuse(400, 'Bad Request', `unable to upgrade: unsupported subprotocol, expected one of ${SUPPORTED_PROTOCOLS.join(', ')}, got ${JSON.stringify(offered.filter(Boolean))}\n`);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // A process takes a moment to start (runc: tens of ms). client-go's WebSocket executor reads
      // frames while it still creates its streams and drops frames of streams it has not made yet
      // ("Unknown stream id 3"): an instant simulated command would lose its exit status that way.
      const client = holdOutput(this.client(ws, protocol), PROCESS_START_MS);
      if (stream.kind === 'exec') void this.serveExec(client, stream.req);
      else this.serveAttach(client, stream.req);
    });
  }

  /**
   * A SPDY/3.1 upgrade (upstream httpstream.Handshake, then spdy.UpgradeResponse):
   * the protocol negotiated from X-Stream-Protocol-Version, then the stream
   * connection for an exec, an attachment or a port forward.
   */
  private upgradeSpdy(req: IncomingMessage, socket: Duplex, head: Buffer, stream: Exclude<Pending, { proxy: string }>, refuse: (code: number, reason: string, body: string) => void): void {
    const supported = stream.kind === 'portforward' ? [PORT_FORWARD_PROTOCOL] : REMOTECOMMAND_SPDY_PROTOCOLS;
    const h = negotiateStreamProtocol(headerValues(req.headers[HEADER_PROTOCOL_VERSION.toLowerCase()]), supported);
    if (!h.ok) {
      const accepted = (h.accepted ?? []).map((p) => `${HEADER_ACCEPTED_PROTOCOL_VERSIONS}: ${p}\r\n`).join('');
      return void socket.end(
        `HTTP/1.1 ${h.code} ${h.code === 403 ? 'Forbidden' : 'Bad Request'}\r\n${accepted}Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(h.message) + 1}\r\nConnection: close\r\n\r\n${h.message}\n`,
      );
    }
    if (stream.kind === 'portforward' && !this.opts.portForward) return refuse(500, 'Internal Server Error', 'the streaming server does not serve PortForward\n');
    socket.write(spdyUpgradeResponse(h.protocol));
    this.spdySockets.add(socket);
    const closed = () => this.spdySockets.delete(socket);
    if (stream.kind === 'portforward') return servePortForwardSpdy(socket, head, stream.req.podSandboxId, this.dialer(), closed);
    const protocol = h.protocol as RemoteCommandSpdyProtocol;
    SpdyRemoteCommandClient.accept(socket, head, protocol, stream.req, closed).then(
      (client) => (stream.kind === 'exec' ? void this.serveExec(client, stream.req) : this.serveAttach(client, stream.req)),
      (e: Error) => this.opts.onError?.('spdy stream setup failed', { err: e.message }),
    );
  }

  /** Sends the client's request on to the shim's URL and splices the two connections (the shim answers the upgrade). */
  private passThrough(req: IncomingMessage, socket: Duplex, head: Buffer, target: string, refuse: (code: number, reason: string, body: string) => void): void {
    const url = new URL(target);
    const up = connect({ host: url.hostname, port: Number(url.port) });
    let connected = false;
    up.once('connect', () => {
      connected = true;
      const headers: string[] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`);
      up.write(`${req.method ?? 'GET'} ${url.pathname} HTTP/1.1\r\n${headers.join('')}\r\n`);
      if (head.length) up.write(head);
      socket.pipe(up);
      up.pipe(socket);
    });
    up.on('error', (e) => (connected ? socket.destroy() : refuse(500, 'Internal Server Error', `error dialing the container's shim: ${e.message}\n`)));
    up.on('close', () => socket.destroy());
    socket.on('close', () => up.destroy());
    this.spdySockets.add(socket);
    socket.once('close', () => this.spdySockets.delete(socket));
  }

  private dialer(): PortDialer {
    return this.opts.portForward ?? (() => Promise.reject(new Error('the streaming server does not serve PortForward')));
  }

  private track(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
  }

  /** A client's socket, tracked until it closes so that close() can cut it. */
  private client(ws: WebSocket, protocol: Protocol): ClientSocket {
    this.sockets.add(ws);
    return new ClientSocket(ws, protocol, () => this.sockets.delete(ws));
  }

  /** An attachment: output until PID 1 exits or the client detaches, then Success on the error channel (upstream ServeAttach). */
  private serveAttach(client: StreamClient, req: AttachRequest): void {
    let a: Attachment;
    try {
      if (!this.opts.attach) throw new Error('the streaming server does not serve Attach');
      a = this.opts.attach(req, (channel, text) => client.send(channel, text));
    } catch (e) {
      this.opts.onError?.('attach failed', { containerId: req.containerId, err: (e as Error).message });
      return client.finish(failureStatus(`error attaching to container: ${(e as Error).message}`));
    }
    client.serve(a, () => a.detach());
    void a.done.then(() => client.finish({ metadata: {}, status: 'Success' }));
  }

  /** An exec: the command's output, then its exit status on the error channel (upstream ServeExec). */
  private async serveExec(client: StreamClient, exec: ExecRequest): Promise<void> {
    let status;
    try {
      const target = this.opts.target(exec.containerId);
      const session = new ExecSession({
        argv: exec.cmd,
        streams: exec,
        target,
        write: (channel, text) => client.send(channel, text),
        prompt: target.prompt ?? busyboxPrompt,
      });
      // No resize: the simulated shell has no screen to lay out; sizes are accepted and ignored.
      client.serve(session, () => session.abort());
      status = exitStatus(await session.run(), exec.cmd);
    } catch (e) {
      this.opts.onError?.('exec failed', { containerId: exec.containerId, err: (e as Error).message });
      status = failureStatus(`error executing command in container: ${(e as Error).message}`);
    }
    client.finish(status);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    for (const s of this.spdySockets) s.destroy();
    this.pending.clear();
    await new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
