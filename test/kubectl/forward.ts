// `kubectl port-forward` as the tests drive it: started on a free local port,
// used once it prints that it forwards, then stopped; and a HEAD request to
// see who answers on the other end.

import { request } from 'node:http';
import { freePort, waitFor } from '@kubelab/testing';
import { POLL, type Cluster } from './harness.js';

/** A HEAD request to 127.0.0.1:port: the status line and the Server header. */
export function head(port: number): Promise<{ status: number; server: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, method: 'HEAD', path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, server: String(res.headers.server) }));
    })
      .on('error', reject)
      .end();
  });
}

export interface ForwardOptions {
  /** The pod port kubectl names in `Forwarding from … -> <podPort>` (a service port maps to it). */
  podPort?: number;
  extra?: string[];
}

/**
 * Runs `kubectl port-forward <target> <local>:<remote>` with `bin` until it
 * says it forwards, calls `use` with the local port, then stops it.
 */
export async function portForward<T>(c: Cluster, bin: string, target: string, remote: number, use: (local: number) => Promise<T>, o: ForwardOptions = {}): Promise<{ value: T; output: string }> {
  const local = await freePort();
  const { child, output } = c.spawnKubectl(['port-forward', target, `${local}:${remote}`, ...(o.extra ?? [])], { bin });
  try {
    const shown = `Forwarding from 127.0.0.1:${local} -> ${o.podPort ?? remote}\n`;
    await waitFor(`${bin} port-forward`, async () => output().includes(shown) || undefined, { ...POLL, timeoutMs: 20_000 });
    return { value: await use(local), output: output() };
  } finally {
    child.kill();
  }
}
