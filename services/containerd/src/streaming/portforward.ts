// Port forwarding on the streaming server (upstream kubelet
// cri/streaming/portforward, which containerd serves): the connection to a
// pod port the client asks for, with bytes copied both ways.
// - SPDY (portforward.k8s.io, kubectl): per forwarded connection the client
//   opens an error and a data stream carrying the same `port` and
//   `requestid` headers; once both are there the server dials the port; a
//   failure is written to the error stream as `error forwarding port P to
//   pod ID, uid : <why>`.
// - WebSocket (v4.channel.k8s.io, the JS client): the ports come with the
//   request; channel 2i carries port i's data and 2i+1 its errors, each
//   starting with the port as two little-endian bytes.

import type { Duplex } from 'node:stream';
import { StreamHeader, attachSpdy, type SpdyStream } from '@kubelab/component-base';
import type { RawData, WebSocket } from 'ws';

/** Connects to a pod's port; throws with the runtime's reason (containerd's text). */
export type PortDialer = (podSandboxId: string, port: number) => Promise<Duplex>;

/** How long the second stream of a pair may take (upstream streamCreationTimeout). */
const PAIR_TIMEOUT_MS = 30_000;
const MAX_PENDING_PAIRS = 100;
const MAX_EARLY_BYTES = 1 << 20;

/** The upstream text of a forwarding failure; containerd passes no pod UID. */
export function forwardError(port: number, podSandboxId: string, why: string): string {
  return `error forwarding port ${port} to pod ${podSandboxId}, uid : ${why}`;
}

/** A port header's value, or why it is not one (upstream: a 16-bit number above 0). */
export function parsePort(v: string | undefined): { ok: true; port: number } | { ok: false; message: string } {
  if (v === undefined || v === '') return { ok: false, message: 'port header is required' };
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n > 65535) return { ok: false, message: `unable to parse "${v}" as a port` };
  if (n < 1) return { ok: false, message: `port "${v}" must be > 0` };
  return { ok: true, port: n };
}

/** Copies bytes between a client stream and the pod's connection until both sides are done. */
function splice(client: Duplex, pod: Duplex): void {
  client.pipe(pod);
  pod.pipe(client);
  const cut = () => {
    client.destroy();
    pod.destroy();
  };
  client.on('error', cut);
  pod.on('error', cut);
}

interface Pair {
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

/** Serves a SPDY port-forward connection for one pod sandbox. */
export function servePortForwardSpdy(socket: Duplex, head: Buffer, podSandboxId: string, dial: PortDialer, closed: () => void): void {
  const pairs = new Map<string, Pair>();
  const forward = async (data: SpdyStream, error: SpdyStream) => {
    const parsed = parsePort(data.headers[StreamHeader.port]);
    try {
      if (!parsed.ok) throw new Error(parsed.message);
      const pod = await dial(podSandboxId, parsed.port);
      pod.on('close', () => error.end());
      splice(data, pod);
    } catch (e) {
      error.end(parsed.ok ? forwardError(parsed.port, podSandboxId, (e as Error).message) : (e as Error).message);
      data.end();
    }
  };
  attachSpdy(
    socket,
    {
      role: 'server',
      onStream: (s) => {
        const type = s.headers[StreamHeader.streamType];
        const id = s.headers[StreamHeader.requestID] ?? '';
        if (type !== 'data' && type !== 'error') return s.reset();
        s.on('error', () => {});
        s.reply();
        let p = pairs.get(id);
        if (!p) {
          if (pairs.size >= MAX_PENDING_PAIRS) return s.reset();
          p = { timer: setTimeout(() => timeout(id), PAIR_TIMEOUT_MS) };
          pairs.set(id, p);
        }
        if (p[type]) return s.reset();
        p[type] = s;
        if (p.data && p.error) {
          clearTimeout(p.timer);
          pairs.delete(id);
          void forward(p.data, p.error);
        }
      },
      onClose: () => {
        for (const p of pairs.values()) clearTimeout(p.timer);
        pairs.clear();
        closed();
      },
    },
    head,
  );
  const timeout = (id: string) => {
    const p = pairs.get(id);
    if (!p) return;
    pairs.delete(id);
    p.error?.end(`timed out waiting for the data and error streams of request ${id}`);
    p.data?.reset();
  };
}

/** The ports of a WebSocket port-forward (the CRI request's), as two little-endian bytes each channel starts with. */
export function portPrefix(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port, 0);
  return b;
}

/** Serves a WebSocket port-forward (v4.channel.k8s.io): one connection to each requested port, opened at once. */
export function servePortForwardWebSocket(ws: WebSocket, podSandboxId: string, ports: number[], dial: PortDialer): void {
  const send = (channel: number, data: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), data]));
  };
  const pods: (Duplex | undefined)[] = [];
  // What the client writes before its port's connection is up waits (bounded) for it.
  const early: Buffer[][] = ports.map(() => []);
  let earlyBytes = 0;
  ports.forEach((port, i) => {
    send(2 * i, portPrefix(port));
    send(2 * i + 1, portPrefix(port));
    dial(podSandboxId, port).then(
      (pod) => {
        if (ws.readyState !== ws.OPEN) return void pod.destroy();
        pods[i] = pod;
        for (const b of early[i]!) pod.write(b);
        early[i] = [];
        pod.on('data', (d: Buffer) => send(2 * i, d));
        pod.on('error', () => {});
        // The pod closed the connection: the forwarding of this port is over, and with one port the socket too.
        pod.on('close', () => {
          pods[i] = undefined;
          if (pods.every((p) => !p) && ws.readyState === ws.OPEN) ws.close(1000);
        });
      },
      (e: Error) => {
        send(2 * i + 1, Buffer.from(forwardError(port, podSandboxId, e.message)));
        if (ws.readyState === ws.OPEN) ws.close(1000);
      },
    );
  });
  ws.on('message', (raw: RawData) => {
    const buf = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as Buffer);
    if (buf.length < 1) return;
    const channel = buf[0]!;
    if (channel % 2 !== 0 || channel / 2 >= ports.length) return;
    const pod = pods[channel / 2];
    if (pod) return void pod.write(buf.subarray(1));
    earlyBytes += buf.length - 1;
    if (earlyBytes > MAX_EARLY_BYTES) return void ws.close(1009);
    early[channel / 2]!.push(buf.subarray(1));
  });
  ws.on('close', () => {
    for (const p of pods) p?.destroy();
  });
  ws.on('error', () => {});
}
