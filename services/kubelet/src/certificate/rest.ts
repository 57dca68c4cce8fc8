// The bootstrap CsrClient: the certificates API over the apiserver's REST
// port with the bootstrap token. The gRPC port requires a client certificate
// (mutual TLS), and a joining kubelet has none yet — a bearer token can only
// be presented over HTTPS on 6443, as kubeadm's kubelets do.

import { request as httpsRequest, type RequestOptions as HttpsOptions } from 'node:https';
import { StatusError, type CertificateSigningRequest, type Status, type WatchEvent } from '@kubelab/api';
import type { ClientCredentials } from '@kubelab/pki/kubeconfig';
import type { CsrClient } from './request.js';

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
/** Bodies are small; a runaway answer is cut here. */
const MAX_BODY = 4 * 1024 * 1024;

export function restCsrClient(creds: ClientCredentials): CsrClient {
  const url = new URL(creds.server);
  const base: HttpsOptions = {
    host: url.hostname,
    port: url.port || 443,
    ...(creds.caPem ? { ca: creds.caPem } : {}),
    rejectUnauthorized: !creds.insecureSkipTlsVerify,
    ...(creds.tlsServerName ? { servername: creds.tlsServerName } : {}),
    headers: { Accept: 'application/json', 'User-Agent': 'kubelet/kubelab (tls-bootstrap)', ...(creds.token ? { Authorization: `Bearer ${creds.token}` } : {}) },
    agent: false,
  };

  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest({ ...base, method, path, headers: { ...base.headers, ...(body ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) req.destroy(new Error(`${method} ${path}: answer over ${MAX_BODY} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300 && parsed) return resolve(parsed as T);
          const status = parsed && (parsed as Status).kind === 'Status' ? (parsed as Status) : undefined;
          reject(new StatusError(status ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, message: text.trim() || `${method} ${path}: HTTP ${code}` }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body ? JSON.stringify(body) : undefined);
    });

  return {
    create: (csr) => call<CertificateSigningRequest>('POST', PATH, csr),
    get: (name) => call<CertificateSigningRequest>('GET', `${PATH}/${encodeURIComponent(name)}`),
    watch(name, resourceVersion) {
      const q = new URLSearchParams({ watch: 'true', fieldSelector: `metadata.name=${name}`, ...(resourceVersion ? { resourceVersion } : {}) });
      let stopped = false;
      let req: ReturnType<typeof httpsRequest> | undefined;
      const events = (async function* () {
        const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
          req = httpsRequest({ ...base, method: 'GET', path: `${PATH}?${q}` }, resolve);
          req.on('error', (e) => (stopped ? resolve(undefined as never) : reject(e)));
          req.end();
        });
        if (!res) return;
        if ((res.statusCode ?? 0) !== 200) {
          res.resume();
          throw new Error(`watch ${name}: HTTP ${res.statusCode}`);
        }
        let buf = '';
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) {
            buf += chunk.toString('utf8');
            if (buf.length > MAX_BODY) throw new Error(`watch ${name}: event over ${MAX_BODY} bytes`);
            let nl: number;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl).trim();
              buf = buf.slice(nl + 1);
              if (line) yield JSON.parse(line) as WatchEvent<CertificateSigningRequest>;
            }
          }
        } catch (e) {
          if (!stopped) throw e;
        }
      })();
      return Object.assign(events, {
        stop() {
          stopped = true;
          req?.destroy();
        },
      });
    },
  };
}
