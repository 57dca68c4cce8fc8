// How simulated servers (nginx, slow-start, grpc-health) become reachable. In `loopback`
// mode (local processes, no privileges) a container port is served on a free
// 127.0.0.1 port and the mapping is reported in PodSandboxStatus info. The
// `pod-ip` mode binds the pod IP itself: the seam for nodes that own a network
// namespace (compose), where something must first add the pod IPs to an
// interface (left to the compose issue).

import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createH2cServer, type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo, Server as NetServer } from 'node:net';

export type NetworkMode = 'loopback' | 'pod-ip';

export interface Listener {
  containerPort: number;
  /** Where the port is really reachable. */
  hostIp: string;
  hostPort: number;
  close(): Promise<void>;
}

/** A cleartext HTTP/2 (h2c) stream handler: how a simulated gRPC server serves a port. */
export interface H2cHandler {
  h2c: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void;
}

/** What a program serves on a container port: HTTP/1.1 requests, or h2c streams (gRPC). */
export type PortHandler = RequestListener | H2cHandler;

export async function listenHttp(mode: NetworkMode, podIp: string, containerPort: number, handler: PortHandler): Promise<Listener> {
  if (typeof handler !== 'function') return listenH2c(mode, podIp, containerPort, handler);
  const server: Server = createServer(handler);
  return bind(server, mode, podIp, containerPort, () => server.closeAllConnections());
}

/** Serves h2c with prior knowledge (what gRPC clients speak without TLS). */
function listenH2c(mode: NetworkMode, podIp: string, containerPort: number, handler: H2cHandler): Promise<Listener> {
  const server = createH2cServer();
  const sessions = new Set<Http2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => handler.h2c(stream, headers));
  return bind(server, mode, podIp, containerPort, () => {
    for (const s of sessions) s.destroy();
  });
}

/** Binds the pod IP and the container port (pod-ip mode) or a free loopback port; close() drops open connections first. */
async function bind(server: NetServer, mode: NetworkMode, podIp: string, containerPort: number, dropConnections: () => void): Promise<Listener> {
  const host = mode === 'pod-ip' ? podIp : '127.0.0.1';
  const port = mode === 'pod-ip' ? containerPort : 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    containerPort,
    hostIp: addr.address,
    hostPort: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        server.close(() => resolve());
      }),
  };
}
