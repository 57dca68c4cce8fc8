// The requestheader authenticator of an extension apiserver (upstream:
// k8s.io/apiserver's authenticator/request/headerrequest with its x509
// verifier): a client certificate issued by the requestheader CA (the
// front-proxy CA) with an allowed common name vouches for the user named in
// the X-Remote-User, X-Remote-Group and X-Remote-Extra-* headers, which the
// aggregator sets when it proxies a request it already authenticated.

import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from './types.js';

/** The requestheader settings (the --requestheader-* flags, or the extension-apiserver-authentication ConfigMap's keys). */
export interface RequestHeaderConfig {
  clientCaPem: string;
  /** Common names allowed to vouch; empty: any certificate of the CA. */
  allowedNames: readonly string[];
  usernameHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeadersPrefix: readonly string[];
}

/** Every certificate of a PEM bundle. */
function bundle(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b));
}

/** Whether one of the bundle's CAs signed the certificate. */
export function issuedBy(cert: X509Certificate, caPem: string): boolean {
  return bundle(caPem).some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey));
}

type HeaderSource = Pick<IncomingMessage, 'headers'> & Partial<Pick<IncomingMessage, 'headersDistinct'>>;

/** Each value of a header as sent: Node joins repeated custom headers with ", " in `headers`, `headersDistinct` keeps them apart (as Go's Header). */
const headerValues = (req: HeaderSource, name: string): string[] => {
  const distinct = req.headersDistinct?.[name.toLowerCase()];
  if (distinct) return distinct;
  const v = req.headers[name.toLowerCase()];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/**
 * The user the headers name when a trusted front proxy sent them; undefined
 * when the request is not the front proxy's (another authenticator decides);
 * an Error when the proxy's certificate is not allowed or names nobody.
 */
export function requestHeaderUser(req: HeaderSource & Pick<IncomingMessage, 'socket'>, cfg: RequestHeaderConfig): UserInfo | undefined | Error {
  const sock = req.socket as Partial<TLSSocket>;
  const peer = sock.getPeerX509Certificate?.();
  if (!peer || !sock.authorized || !issuedBy(peer, cfg.clientCaPem)) return undefined;
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(peer.subject)?.[1] ?? '';
  if (cfg.allowedNames.length > 0 && !cfg.allowedNames.includes(cn)) return new Error(`x509: subject with cn=${cn} is not in the allowed list`);
  const name = cfg.usernameHeaders.map((h) => headerValues(req, h)[0]?.trim()).find((v) => v);
  // A front-proxy certificate without a user is no one's: not a client certificate of the client CA either.
  if (!name) return new Error('x509: certificate signed by unknown authority');
  const groups = cfg.groupHeaders.flatMap((h) => headerValues(req, h));
  const extra: Record<string, string[]> = {};
  for (const k of Object.keys(req.headers)) {
    const prefix = cfg.extraHeadersPrefix.find((p) => k.startsWith(p.toLowerCase()));
    if (!prefix) continue;
    const key = decodeURIComponent(k.slice(prefix.length));
    extra[key] = [...(extra[key] ?? []), ...headerValues(req, k)];
  }
  return { name, groups, ...(Object.keys(extra).length ? { extra } : {}) };
}

/** The ConfigMap kube-system/extension-apiserver-authentication's requestheader keys as a config; undefined without a requestheader CA. */
export function requestHeaderFromConfigMap(data: Record<string, string> | undefined): RequestHeaderConfig | undefined {
  const ca = data?.['requestheader-client-ca-file'];
  if (!ca) return undefined;
  const list = (key: string): string[] => {
    try {
      const v = JSON.parse(data[key] ?? '[]') as unknown;
      return Array.isArray(v) ? v.map(String) : [];
    } catch {
      return [];
    }
  };
  return {
    clientCaPem: ca,
    allowedNames: list('requestheader-allowed-names'),
    usernameHeaders: list('requestheader-username-headers'),
    groupHeaders: list('requestheader-group-headers'),
    extraHeadersPrefix: list('requestheader-extra-headers-prefix'),
  };
}
