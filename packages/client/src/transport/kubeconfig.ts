// A component's credentials from its kubeconfig (upstream: clientcmd building
// a rest.Config): the CA to trust and the client certificate that is its
// identity. kubelab components dial the apiserver's gRPC port, so the
// kubeconfig's server URL is not used for the address.

import { readFileSync } from 'node:fs';
import { loadKubeconfig, type ClientCredentials } from '@kubelab/pki/kubeconfig';
import type { ClientTls } from './connection.js';

export function clientTlsFromKubeconfig(path: string): ClientTls {
  return clientTlsFromCredentials(loadKubeconfig(path));
}

/** The gRPC client's TLS from a kubeconfig already read (its path names it in errors). */
export function clientTlsFromCredentials(creds: ClientCredentials): ClientTls {
  const path = creds.path ?? 'kubeconfig';
  if (!creds.caPem) throw new Error(`kubeconfig ${path}: no certificate-authority for the apiserver`);
  if (!creds.clientCertPem || !creds.clientKeyPem) throw new Error(`kubeconfig ${path}: the user has no client certificate (the gRPC port authenticates by certificate)`);
  const tls: ClientTls = { caPem: creds.caPem, certPem: creds.clientCertPem, keyPem: creds.clientKeyPem };
  if (creds.tlsServerName) tls.serverName = creds.tlsServerName;
  return tls;
}

/** How long a token file's contents are kept before it is read again (client-go's cachingTokenSource: 1 minute). */
const TOKEN_FILE_PERIOD_MS = 60_000;

/** A token file read again after `periodMs` (the kubelet rewrites a projected token before it expires); the last good value while it cannot be read. */
export function tokenFileSource(path: string, periodMs = TOKEN_FILE_PERIOD_MS, now: () => number = Date.now): () => string | undefined {
  let value: string | undefined;
  let readAt = -Infinity;
  return () => {
    if (now() - readAt >= periodMs) {
      try {
        value = readFileSync(path, 'utf8').trim() || value;
        readAt = now();
      } catch {
        // Kept: a rotation swaps the file's symlink; the next call tries again.
      }
    }
    return value;
  };
}

/**
 * A component's identity from its kubeconfig: a client certificate
 * (clientTlsFromKubeconfig), or a bearer token (`token`, or `tokenFile` read
 * again each minute, as a kubeadm kube-proxy's ServiceAccount token) over TLS
 * that verifies the apiserver only (the ClientTls's certificate and key empty).
 */
export function credentialsFromKubeconfig(path: string): { tls: ClientTls; bearerToken?: () => string | undefined } {
  const creds = loadKubeconfig(path);
  if (creds.clientCertPem && creds.clientKeyPem) return { tls: clientTlsFromKubeconfig(path) };
  if (!creds.caPem) throw new Error(`kubeconfig ${path}: no certificate-authority for the apiserver`);
  const tls: ClientTls = { caPem: creds.caPem, certPem: '', keyPem: '' };
  if (creds.tlsServerName) tls.serverName = creds.tlsServerName;
  if (creds.tokenFile) return { tls, bearerToken: tokenFileSource(creds.tokenFile) };
  const token = creds.token;
  if (!token) throw new Error(`kubeconfig ${path}: the user has neither a client certificate nor a token`);
  return { tls, bearerToken: () => token };
}

/**
 * The connections of a secure port's reviews (upstream --authentication-kubeconfig,
 * --authorization-kubeconfig): each kubeconfig's credentials when it is given
 * and is not --kubeconfig; otherwise the component's own connection serves.
 */
export function reviewKubeconfigs(values: { kubeconfig: string; 'authentication-kubeconfig': string; 'authorization-kubeconfig': string }): {
  authenticationTls?: ClientTls;
  authorizationTls?: ClientTls;
} {
  const own = (path: string) => !path || path === values.kubeconfig;
  return {
    ...(own(values['authentication-kubeconfig']) ? {} : { authenticationTls: clientTlsFromKubeconfig(values['authentication-kubeconfig']) }),
    ...(own(values['authorization-kubeconfig']) ? {} : { authorizationTls: clientTlsFromKubeconfig(values['authorization-kubeconfig']) }),
  };
}
