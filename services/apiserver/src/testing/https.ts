// One HTTPS request to an apiserver's secure port, trusting only the cluster CA.

import { request as httpsRequestRaw } from 'node:https';

export interface RestRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Client certificate to present (default the admin's); 'anonymous' presents none. */
  as?: { cert: string; key: string } | 'anonymous';
}

/** An HTTPS request trusting only `caPem`. */
export function httpsRequest(
  port: number,
  path: string,
  caPem: string,
  opts: RestRequest & { cert?: string; key?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequestRaw(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {}, ca: caPem, ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}), agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
