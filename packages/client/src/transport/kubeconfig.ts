// A component's credentials from its kubeconfig (upstream: clientcmd building
// a rest.Config): the CA to trust and the client certificate that is its
// identity. kubelab components dial the apiserver's gRPC port, so the
// kubeconfig's server URL is not used for the address.

import { loadKubeconfig } from '@kubelab/pki/kubeconfig';
import type { ClientTls } from './connection.js';

export function clientTlsFromKubeconfig(path: string): ClientTls {
  const creds = loadKubeconfig(path);
  if (!creds.caPem) throw new Error(`kubeconfig ${path}: no certificate-authority for the apiserver`);
  if (!creds.clientCertPem || !creds.clientKeyPem) throw new Error(`kubeconfig ${path}: the user has no client certificate (the gRPC port authenticates by certificate)`);
  const tls: ClientTls = { caPem: creds.caPem, certPem: creds.clientCertPem, keyPem: creds.clientKeyPem };
  if (creds.tlsServerName) tls.serverName = creds.tlsServerName;
  return tls;
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
