// One GET to a cluster endpoint over HTTP or HTTPS, trusting the cluster CA
// and presenting a client certificate when given (fetch cannot do either
// without an extra dependency).

import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';

export interface ClientTlsFiles {
  ca: string;
  cert?: string;
  key?: string;
}

/** `insecure`: the server's certificate is not verified (a self-signed secure port, as kubeadm's HTTPS probes with InsecureSkipVerify). */
export function getText(url: string, opts: { tls?: ClientTlsFiles; insecure?: boolean; timeoutMs?: number } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    };
    const timeout = opts.timeoutMs ?? 2000;
    const tls = opts.insecure ? { rejectUnauthorized: false } : (opts.tls ?? {});
    const req = url.startsWith('https:') ? httpsGet(url, { ...tls, timeout, agent: false }, onResponse) : httpGet(url, { timeout, agent: false }, onResponse);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeout} ms`)));
    req.on('error', reject);
  });
}
