// Without --tls-cert-file the apiserver still serves HTTPS: like upstream
// (which writes apiserver.crt into --cert-dir), it makes a throwaway CA and a
// serving certificate for localhost, the loopback and the given addresses.

import { isIP } from 'node:net';
import { selfSignedCertKey } from '@kubelab/pki';
import type { ServingTls } from '../http/server.js';

export async function selfSignedServingTls(hosts: readonly string[]): Promise<ServingTls> {
  const ips = new Set(['127.0.0.1']);
  const names = new Set<string>();
  for (const h of hosts) {
    if (!h || h === '0.0.0.0' || h === '::') continue;
    (isIP(h) ? ips : names).add(h);
  }
  const pair = await selfSignedCertKey('localhost', { dnsNames: [...names], ipAddresses: [...ips] });
  return { certPem: pair.cert, keyPem: pair.key };
}
