// The aggregator's proxy (upstream: kube-aggregator's proxyHandler): a
// request for a group version an APIService hands to a Service goes, after
// this apiserver authenticated and authorized it, to one of the Service's
// endpoints over HTTPS with the front-proxy client certificate; who asked
// travels in the requestheader headers (X-Remote-User, X-Remote-Group,
// X-Remote-Extra-*), which the extension apiserver trusts because of that
// certificate. The caller's own credentials are not forwarded.

import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { APIService, UserInfo } from '@kubelab/api';
import { joinHostPort } from '@kubelab/api';

/** --proxy-client-cert-file and --proxy-client-key-file as PEM. */
export interface ProxyClientConfig {
  certPem: string;
  keyPem: string;
}

/** The TLS options towards an APIService's backend: the front-proxy certificate; the backend verified by caBundle unless insecureSkipTLSVerify. */
export function backendTls(a: APIService, client: ProxyClientConfig | undefined): Pick<RequestOptions, 'cert' | 'key' | 'ca' | 'rejectUnauthorized' | 'servername'> {
  const spec = a.spec;
  const ca = spec?.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined;
  return {
    ...(client ? { cert: client.certPem, key: client.keyPem } : {}),
    ...(ca ? { ca } : {}),
    rejectUnauthorized: !spec?.insecureSkipTLSVerify,
    // The serving certificate is checked for the Service's DNS name, as upstream's transport does.
    ...(spec?.service ? { servername: `${spec.service.name}.${spec.service.namespace}.svc` } : {}),
  };
}

/** Hop-by-hop headers, the caller's credentials and any requestheader headers the caller sent itself. */
const DROPPED = /^(host|connection|keep-alive|proxy-connection|proxy-authorization|te|trailer|transfer-encoding|upgrade|authorization|impersonate-.*|x-remote-.*)$/;

/** The headers sent to the backend: the caller's, less DROPPED, plus who the caller is (upstream transport.SetAuthProxyHeaders). */
export function proxiedHeaders(incoming: IncomingMessage['headers'], user: UserInfo, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && !DROPPED.test(k)) out[k] = v;
  out.host = host;
  out['x-remote-user'] = user.name;
  if (user.groups.length) out['x-remote-group'] = [...user.groups];
  for (const [k, vs] of Object.entries(user.extra ?? {})) out[`x-remote-extra-${encodeURIComponent(k.toLowerCase())}`] = [...vs];
  return out;
}

/** Go's net/http error text: 503 "service unavailable" in text/plain (upstream proxyError). */
export function unavailable(res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end('service unavailable\n');
}

/** Relays one request to the backend and its answer back, as it streams (watches included). */
export function proxyToBackend(req: IncomingMessage, res: ServerResponse, target: { host: string; port: number }, a: APIService, user: UserInfo, client: ProxyClientConfig | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const upstream = httpsRequest(
      {
        host: target.host,
        port: target.port,
        path: req.url ?? '/',
        method: req.method ?? 'GET',
        headers: proxiedHeaders(req.headers, user, joinHostPort(target.host, target.port)),
        ...backendTls(a, client),
        agent: false,
      },
      (ures) => {
        const out: OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(ures.headers)) if (v !== undefined && !/^(connection|keep-alive|transfer-encoding)$/.test(k)) out[k] = v;
        res.writeHead(ures.statusCode ?? 502, out);
        ures.pipe(res);
        ures.on('end', resolve);
        ures.on('error', () => resolve());
      },
    );
    upstream.on('error', () => {
      // Upstream's error responder answers a failed dial with 503.
      if (!res.headersSent) unavailable(res);
      else res.destroy();
      resolve();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
}
