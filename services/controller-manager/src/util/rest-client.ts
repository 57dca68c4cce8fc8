// The apiserver's REST API for what its gRPC API does not carry: the scale
// subresource of any kind and the aggregated APIs behind it, such as
// metrics.k8s.io (upstream: the scale client and the metrics client are
// rest clients of the same rest.Config). JSON over HTTPS, authenticated by
// the controller's ServiceAccount token or else the manager's client
// certificate; a failure is the metav1.Status the server answered.

import https from 'node:https';
import { StatusError, type Status } from '@kubelab/api';
import type { ClientTls } from '@kubelab/client';

export interface RestConfig {
  /** https://host:port of the apiserver (the kubeconfig's server). */
  server: string;
  tls: ClientTls;
  /** A ServiceAccount token sent instead of the client certificate (--use-service-account-credentials). */
  bearerToken?: () => string | undefined;
  timeoutMs?: number;
}

export interface RestClient {
  get<T>(path: string): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
}

/** A Status for an answer that carried none (a proxy's plain-text error, a dropped connection). */
function statusOf(code: number, text: string): Status {
  try {
    const s = JSON.parse(text) as Status;
    if (s && s.kind === 'Status') return s;
  } catch {
    // not JSON: described below
  }
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text.trim() || `the server responded with status ${code}`, code };
}

export function newRestClient(config: RestConfig): RestClient {
  const base = new URL(config.server);
  const request = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const token = config.bearerToken?.();
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        {
          method,
          host: base.hostname,
          port: base.port || 443,
          path,
          ca: config.tls.caPem,
          ...(token ? {} : { cert: config.tls.certPem, key: config.tls.keyPem }),
          ...(config.tls.serverName ? { servername: config.tls.serverName } : {}),
          headers: {
            Accept: 'application/json',
            'User-Agent': 'kube-controller-manager/kubelab',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          },
          timeout: config.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) {
              try {
                resolve(JSON.parse(text) as T);
              } catch (err) {
                reject(err as Error);
              }
            } else reject(new StatusError(statusOf(code, text)));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`the request to ${path} timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  return { get: (path) => request('GET', path), put: (path, body) => request('PUT', path, body) };
}
