// Without --tls-cert-file the apiserver still serves HTTPS: like upstream
// (which writes apiserver.crt into --cert-dir), it makes a throwaway CA and a
// serving certificate for localhost, the loopback and the given addresses.

import { isIP } from 'node:net';
import { CertificateAuthority } from '@kubelab/pki';
import type { ServingTls } from '../http/server.js';

export async function selfSignedServingTls(hosts: readonly string[]): Promise<ServingTls> {
  const ca = await CertificateAuthority.create(`localhost-ca@${Math.floor(Date.now() / 1000)}`, { algorithm: 'ECDSA-P256' });
  const ips = new Set(['127.0.0.1']);
  const names = new Set(['localhost']);
  for (const h of hosts) {
    if (!h || h === '0.0.0.0' || h === '::') continue;
    (isIP(h) ? ips : names).add(h);
  }
  const pair = await ca.issue({ commonName: `localhost@${Math.floor(Date.now() / 1000)}`, usages: ['server'], dnsNames: [...names], ipAddresses: [...ips] }, { algorithm: 'ECDSA-P256' });
  return { certPem: `${pair.cert}${ca.certPem}`, keyPem: pair.key };
}
