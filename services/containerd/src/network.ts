// How simulated servers (nginx, redis, grpc-health) become reachable. In `loopback`
// mode (local processes, no privileges) a container port is served on a free
// 127.0.0.1 port and the mapping is reported in PodSandboxStatus info. The
// `pod-ip` mode binds the pod IP itself: the seam for nodes that own a network
// namespace (compose), where something must first add the pod IPs to an
// interface (left to the compose issue). Loopback mode's reach beyond the
// pod (other pods, Services) is the socket-LB translation of socket-lb.ts.

import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createH2cServer, type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { connect as netConnect, createServer as createTcpServer, isIP, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Decision } from './socket-lb.js';

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

/** A raw TCP connection handler: how a server with its own wire protocol (redis, memcached, postgres) serves a port. */
export interface TcpHandler {
  tcp: (socket: Socket) => void;
}

/** A UDP datagram handler (a DNS server's port 53/UDP): each datagram in, any number of replies to its sender. */
export interface UdpHandler {
  udp: (msg: Buffer, from: RemoteInfo, reply: (data: Buffer) => void) => void;
}

/** What a program serves on a container port: HTTP/1.1 requests, h2c streams (gRPC), raw TCP connections, or UDP datagrams. */
export type PortHandler = RequestListener | H2cHandler | TcpHandler | UdpHandler;

/** Whether a handler serves UDP (its port is `<port>/UDP` beside a TCP one of the same number). */
export function isUdpHandler(handler: PortHandler): handler is UdpHandler {
  return typeof handler === 'object' && 'udp' in handler;
}

export async function listenPort(mode: NetworkMode, podIp: string, containerPort: number, handler: PortHandler): Promise<Listener> {
  if (typeof handler === 'function') {
    const server: Server = createServer(handler);
    return bind(server, mode, podIp, containerPort, () => server.closeAllConnections());
  }
  if (isUdpHandler(handler)) return listenUdp(mode, podIp, containerPort, handler);
  if ('tcp' in handler) return listenTcp(mode, podIp, containerPort, handler);
  return listenH2c(mode, podIp, containerPort, handler);
}

function listenTcp(mode: NetworkMode, podIp: string, containerPort: number, handler: TcpHandler): Promise<Listener> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A client that resets mid-reply must not end the runtime.
    socket.on('error', () => socket.destroy());
    handler.tcp(socket);
  });
  return bind(server, mode, podIp, containerPort, () => {
    for (const s of sockets) s.destroy();
  });
}

/** Binds a UDP port as bind() does a TCP one: the pod IP and the container port (pod-ip mode) or a free loopback port. */
async function listenUdp(mode: NetworkMode, podIp: string, containerPort: number, handler: UdpHandler): Promise<Listener> {
  const host = mode === 'pod-ip' ? podIp : '127.0.0.1';
  const socket = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(mode === 'pod-ip' ? containerPort : 0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  // A send to a vanished peer (ICMP unreachable) must not end the runtime.
  socket.on('error', () => {});
  socket.on('message', (msg, from) => handler.udp(msg, from, (data) => socket.send(data, from.port, from.address)));
  const addr = socket.address();
  return {
    containerPort,
    hostIp: addr.address,
    hostPort: addr.port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * A container's outgoing TCP connection. `local` maps a port of the pod's
 * own network namespace (localhost, the pod IP) to where it is really
 * served; any other address is dialled for real (in a node's network
 * namespace the kernel's Service rules apply), from the pod IP in pod-ip mode.
 * A name is looked up with `resolve` (the container's resolver: its
 * /etc/hosts and cluster DNS, resolver.ts); never with the host's resolver.
 * In loopback mode `route` (socket-lb.ts, the local runner's connect-time
 * translation) says where another pod's or a Service's address leads;
 * without it there is no pod network (EHOSTUNREACH).
 */
export async function dialTcp(
  mode: NetworkMode,
  podIp: string,
  host: string,
  port: number,
  local: (port: number) => { hostIp: string; hostPort: number } | undefined,
  resolve?: (name: string) => Promise<string>,
  route?: (ip: string, port: number) => Decision,
): Promise<Socket> {
  const fail = (code: string) => Promise.reject(Object.assign(new Error(`connect ${code} ${host}:${port}`), { code }));
  if (host !== 'localhost' && !isIP(host)) {
    if (!resolve) return fail('ENOTFOUND');
    let ip: string;
    try {
      ip = await resolve(host);
    } catch {
      // NXDOMAIN and an unreachable nameserver alike: what wget and curl report as an unresolved host.
      return fail('ENOTFOUND');
    }
    return dialTcp(mode, podIp, ip, port, local, undefined, route);
  }
  const own = host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === podIp;
  let target: { hostIp: string; hostPort: number } | undefined;
  if (own) target = local(port);
  else if (mode === 'pod-ip') target = { hostIp: host, hostPort: port };
  else {
    // Loopback mode: only the pod's own ports exist, unless the socket-LB maps say where the address leads.
    if (!route) return fail('EHOSTUNREACH');
    const d = route(host, port);
    if ('error' in d) return d.error === 'ETIMEDOUT' ? unanswered(host, port) : fail(d.error);
    target = d;
  }
  if (!target) return fail('ECONNREFUSED');
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: target.hostIp, port: target.hostPort, ...(mode === 'pod-ip' && !own && podIp ? { localAddress: podIp } : {}) });
    socket.setTimeout(10_000, () => socket.destroy(Object.assign(new Error(`connect ETIMEDOUT ${host}:${port}`), { code: 'ETIMEDOUT' })));
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Linux's connect() timeout when no SYN-ACK ever comes (tcp_syn_retries=6: about 127 s); callers' own deadlines come first. */
export const SYN_TIMEOUT_MS = 127_000;

/** A connect nobody answers: ETIMEDOUT after the kernel's SYN retries. */
function unanswered(host: string, port: number): Promise<Socket> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(Object.assign(new Error(`connect ETIMEDOUT ${host}:${port}`), { code: 'ETIMEDOUT' })), SYN_TIMEOUT_MS).unref();
  });
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
