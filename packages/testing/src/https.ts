// One HTTPS GET to a loopback port, for a component's secure port whose
// certificate is self-signed (kube-scheduler, kube-controller-manager): the
// certificate is checked against `ca` when given, not checked without it.

import { request } from 'node:https';

export interface SecureGetOptions {
  /** The CA to verify the serving certificate with; absent, it is not verified (curl -k). */
  ca?: string;
  /** A client certificate and key to present. */
  cert?: string;
  key?: string;
  /** A bearer token (Authorization header). */
  token?: string;
  method?: string;
}

export function secureGet(port: number, path: string, opts: SecureGetOptions = {}): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        agent: false,
        ...(opts.ca ? { ca: opts.ca } : { rejectUnauthorized: false }),
        ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}),
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
