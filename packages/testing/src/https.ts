// One HTTPS request to a loopback port: an apiserver's (checked against its
// CA) or a component's secure port whose certificate is self-signed
// (kube-scheduler, kube-controller-manager: not checked without `ca`).

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
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface SecureResponse {
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The status, content type and body (what most checks compare whole). */
export async function secureGet(port: number, path: string, opts: SecureGetOptions = {}): Promise<{ status: number; contentType: string; body: string }> {
  const { status, contentType, body } = await secureRequest(port, path, opts);
  return { status, contentType, body };
}

/** The whole response, headers included. */
export function secureRequest(port: number, path: string, opts: SecureGetOptions = {}): Promise<SecureResponse> {
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
        headers: { ...opts.headers, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
