// One HTTPS request to an apiserver's secure port, trusting only the cluster CA.

import { secureRequest } from '@kubelab/testing';

export interface RestRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Client certificate to present (default the admin's); 'anonymous' presents none. */
  as?: { cert: string; key: string } | 'anonymous';
}

/** An HTTPS request trusting only `caPem`. */
export async function httpsRequest(
  port: number,
  path: string,
  caPem: string,
  opts: RestRequest & { cert?: string; key?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { status, headers, body } = await secureRequest(port, path, {
    ca: caPem,
    ...(opts.method ? { method: opts.method } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}),
  });
  return { status, headers, body };
}
