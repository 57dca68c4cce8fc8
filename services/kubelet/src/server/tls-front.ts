// Where the kubelet server's connections are terminated. A kubelet has an
// HTTPS server of its own (ownTlsFront). The kubelets of one hollow-node
// worker share one (SharedTlsFront): Node's https.Server builds its TLS
// context from the PEM it is given whatever else it has, ~2.6 ms for a
// worker's serving pair (which names every node's address) per kubelet
// started. The shared front takes each node's connections from a plain TCP
// listener on that node's address (the documented way to hand a server a
// connection: emit 'connection') and gives each request to the kubelet
// whose address it came to, as separate servers would.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server, type ServerOptions } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { serveUpgrades, type ServingCertificate } from '@kubelab/component-base';

export type KubeletHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The kubelet's listening port, and how to stop serving it (its connections end). */
export interface KubeletListener {
  port: number;
  close(): Promise<void>;
}

export interface TlsFront {
  listen(host: string, port: number, handle: KubeletHandler): Promise<KubeletListener>;
}

export type KubeletServingTls = ServingCertificate & { clientCaPem?: string };

// An idle connection is kept 90 s (upstream's kubelet server IdleTimeout, as long as its clients keep theirs): the
// metrics-server's scrape every 15 s reuses its connection instead of a TLS handshake per scrape (Node's default is 5 s).
const KEEP_ALIVE_MS = 90_000;

function httpsServer(tls: KubeletServingTls, handle: KubeletHandler): Server {
  const options: ServerOptions = {
    cert: tls.certPem,
    key: tls.keyPem,
    ...(tls.clientCaPem ? { ca: tls.clientCaPem, requestCert: true } : {}),
    // A certificate from another CA is the filter's 401, not a failed handshake (Go's RequestClientCert).
    rejectUnauthorized: false,
  };
  const server = createServer(options, (req, res) => void handle(req, res));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

/** Binds; afterwards an accept error (EMFILE) is ignored, as Node's own server does for a socket's, instead of ending the process (a worker holds hundreds of nodes). */
function listenOn(server: TcpServer, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', () => {});
      resolve(server.address() as AddressInfo);
    });
  });
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** A server of the kubelet's own, with its own TLS context. */
export function ownTlsFront(tls: KubeletServingTls): TlsFront {
  return {
    async listen(host, port, handle) {
      const server = httpsServer(tls, handle);
      // Upgrade requests (exec streams) reach the same handler with a response bound to their socket.
      const upgrades = serveUpgrades(server, handle);
      const bound = await listenOn(server, host, port);
      return {
        port: bound.port,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            upgrades.closeAll();
            server.close(() => resolve());
          }),
      };
    },
  };
}

/** One TLS server for the kubelets of a process, each listening on an address of its own (hollow nodes). */
export class SharedTlsFront implements TlsFront {
  private readonly server: Server;
  /** The kubelet serving each `address:port`. */
  private readonly handlers = new Map<string, KubeletHandler>();

  constructor(tls: KubeletServingTls) {
    const route: KubeletHandler = (req, res) => this.route(req, res);
    this.server = httpsServer(tls, route);
    serveUpgrades(this.server, route);
    // Node starts enforcing headersTimeout and requestTimeout when a server starts listening; this one never listens
    // itself (the nodes' TCP listeners hand it their connections), so it is told once that it serves.
    this.server.emit('listening');
  }

  private route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handle = this.handlers.get(`${req.socket.localAddress}:${req.socket.localPort}`);
    if (handle) return handle(req, res);
    // The kubelet stopped between the connection and this request.
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('kubelet is not serving\n');
    return Promise.resolve();
  }

  async listen(host: string, port: number, handle: KubeletHandler): Promise<KubeletListener> {
    const sockets = new Set<Socket>();
    // No Nagle, as on Node's own servers: exec and port-forward streams write small frames.
    const tcp = createTcpServer({ noDelay: true }, (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      this.server.emit('connection', socket);
    });
    const bound = await listenOn(tcp, host, port);
    // Requests are routed by the address they came to: a wildcard address would not tell the kubelets apart.
    if (WILDCARDS.has(bound.address)) {
      await new Promise((resolve) => tcp.close(resolve));
      throw new Error(`a shared kubelet TLS front needs each kubelet's own address, got ${JSON.stringify(host)}`);
    }
    const key = `${bound.address}:${bound.port}`;
    this.handlers.set(key, handle);
    let closed: Promise<void> | undefined;
    return {
      port: bound.port,
      close: () =>
        (closed ??= new Promise<void>((resolve) => {
          if (this.handlers.get(key) === handle) this.handlers.delete(key);
          // Upgraded streams included: they ride on these sockets.
          for (const s of sockets) s.destroy();
          tcp.close(() => resolve());
        })),
    };
  }
}
