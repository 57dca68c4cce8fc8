// @ts-check
// The flags both kubelet benches start node-1's containerd and kubelet with:
// one node, its state under `dir`, zero simulated pull time, quiet logs.

import { join } from 'node:path';

/**
 * containerd of node-1, serving CRI on `socket` and publishing its call records to NATS.
 * @param {string} dir @param {string} socket @param {string} natsUrl
 */
export const containerdArgs = (dir, socket, natsUrl) => [
  ...['--node-name', 'node-1', '--address', socket, '--root', join(dir, 'containerd'), '--health-port', '0', '--pull-speed', '0'],
  ...['--nats-url', natsUrl, '--pod-cidr', '10.244.1.0/24', '--v', 'error'],
];

/**
 * The kubelet of node-1 against the apiserver at `api` (host:port) and the runtime on `socket`.
 * @param {string} dir @param {string} socket @param {string} api @param {number} port its API port (0: any)
 */
export const kubeletArgs = (dir, socket, api, port) => [
  ...['--apiserver-grpc-address', api, '--hostname-override', 'node-1', '--node-ip', '127.0.0.1', '--container-runtime-endpoint', `unix://${socket}`],
  ...['--address', '127.0.0.1', '--port', String(port), '--healthz-port', '0', '--root-dir', join(dir, 'kubelet'), '--pod-logs-dir', join(dir, 'pods')],
];
