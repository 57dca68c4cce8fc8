// How simulated servers (nginx, slow-start) become reachable. In `loopback`
// mode (local processes, no privileges) a container port is served on a free
// 127.0.0.1 port and the mapping is reported in PodSandboxStatus info. The
// `pod-ip` mode binds the pod IP itself: the seam for nodes that own a network
// namespace (compose), where something must first add the pod IPs to an
// interface (left to the compose issue).

import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type NetworkMode = 'loopback' | 'pod-ip';

export interface Listener {
  containerPort: number;
  /** Where the port is really reachable. */
  hostIp: string;
  hostPort: number;
  close(): Promise<void>;
}

export async function listenHttp(mode: NetworkMode, podIp: string, containerPort: number, handler: RequestListener): Promise<Listener> {
  const server: Server = createServer(handler);
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
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
