// A serving certificate nobody issued (upstream: client-go's
// certutil.GenerateSelfSignedCertKey): a throwaway CA `<host>-ca@<unix>` signs
// `<host>@<unix>` for the host and the extra names and addresses; the file
// holds the leaf then that CA, so a client can pin it. What the apiserver
// serves without --tls-cert-file and the kubelet writes into
// <cert-dir>/kubelet.crt.

import { isIP } from 'node:net';
import { CertificateAuthority, type CertKeyPem } from './certificate.js';
import type { KeyAlgorithm } from './keys.js';

export interface SelfSignedOptions {
  ipAddresses?: readonly string[];
  dnsNames?: readonly string[];
  /** Default ECDSA-P256: made at every first start, so cheap. */
  algorithm?: KeyAlgorithm;
  now?: Date;
}

export async function selfSignedCertKey(host: string, opts: SelfSignedOptions = {}): Promise<CertKeyPem> {
  const now = opts.now ?? new Date();
  const stamp = Math.floor(now.getTime() / 1000);
  const algorithm = opts.algorithm ?? 'ECDSA-P256';
  const ips = new Set(opts.ipAddresses ?? []);
  const names = new Set(opts.dnsNames ?? []);
  (isIP(host) ? ips : names).add(host);
  const ca = await CertificateAuthority.create(`${host}-ca@${stamp}`, { algorithm, now });
  const pair = await ca.issue({ commonName: `${host}@${stamp}`, usages: ['server'], dnsNames: [...names], ipAddresses: [...ips], now }, { algorithm });
  // PEM blocks end in a newline, or the bundle's second BEGIN line runs on from the first END.
  const block = (pem: string) => (pem.endsWith('\n') ? pem : `${pem}\n`);
  return { cert: `${block(pair.cert)}${block(ca.certPem)}`, key: pair.key };
}
