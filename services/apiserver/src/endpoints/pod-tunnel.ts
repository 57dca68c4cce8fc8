// pods/proxy and services/proxy reach a pod through its node's kubelet: a
// port-forward (`/portForward/<ns>/<pod>?port=N`, WebSocket
// v4.channel.k8s.io) whose data channel is the connection. Upstream dials
// the pod IP, being on the pod network; kubelab's apiserver is not (compose
// keeps pod addresses inside the node containers, the local runner has none),
// so it takes the route the apiserver network proxy (Konnectivity) takes on
// clusters whose control plane cannot reach pods: through an agent on the node.

import { Duplex } from 'node:stream';
import WebSocket, { type RawData } from 'ws';
import type { KubeletAddress } from './env.js';
import { kubeletTlsOptions, kubeletUrl, type KubeletClientConfig } from './kubelet-client.js';

/** A pod port the proxy dials, with the pod it belongs to when known. */
export interface PodPort {
  ip: string;
  port: number;
  pod?: { namespace: string; name: string; node: string };
}

/** Opens a connection to a pod's port. */
export type PodDialer = (target: PodPort) => Promise<Duplex>;

const OPEN_TIMEOUT_MS = 10_000;
/** Each channel's first message is its port, as two little-endian bytes (upstream's v4 port-forward). */
const PORT_PREFIX_BYTES = 2;

/** The tunnel as a socket: bytes written go to channel 0, channel 0 comes back, channel 1 carries the kubelet's error. */
function tunnelSocket(ws: WebSocket): Duplex {
  const prefixSeen = [false, false];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      ws.send(Buffer.concat([Buffer.from([0]), chunk]), cb);
    },
    final(cb) {
      ws.close(1000);
      cb();
    },
    destroy(err, cb) {
      ws.terminate();
      cb(err);
    },
  });
  ws.on('message', (raw: RawData) => {
    const buf = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as Buffer);
    const channel = buf[0];
    if (channel !== 0 && channel !== 1) return;
    let payload = buf.subarray(1);
    if (!prefixSeen[channel]) {
      prefixSeen[channel] = true;
      payload = payload.subarray(PORT_PREFIX_BYTES);
    }
    if (payload.length === 0) return;
    if (channel === 0) socket.push(payload);
    else socket.destroy(new Error(payload.toString('utf8')));
  });
  ws.on('close', () => socket.push(null));
  ws.on('error', (e) => socket.destroy(e));
  return socket;
}

/** A dialer reaching pods through their kubelets; a pod port without its pod is refused (nothing to tunnel through). */
export function kubeletTunnelDialer(kubeletAddress: (node: string) => Promise<KubeletAddress>, client: KubeletClientConfig): PodDialer {
  return async ({ ip, port, pod }) => {
    if (!pod?.node) throw new Error(`dial tcp ${ip}:${port}: no pod behind this address to reach through its node`);
    const url = kubeletUrl(await kubeletAddress(pod.node), `/portForward/${encodeURIComponent(pod.namespace)}/${encodeURIComponent(pod.name)}?port=${port}`);
    url.protocol = 'wss:';
    const ws = new WebSocket(url, ['v4.channel.k8s.io'], { ...kubeletTlsOptions(client), handshakeTimeout: OPEN_TIMEOUT_MS });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      // The kubelet refused the upgrade (no such pod, forbidden): its text is the reason.
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d.slice(0, 1024 - body.length)));
        res.on('end', () => reject(new Error(`dial tcp ${ip}:${port}: the node's kubelet answered ${res.statusCode}: ${body.trim()}`)));
        res.on('error', reject);
      });
    });
    return tunnelSocket(ws);
  };
}
