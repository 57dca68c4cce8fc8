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
