// A component's HTTPS serving certificate (upstream: SecureServingOptions'
// MaybeDefaultWithSelfSignedCerts, and the kubelet's InitializeTLS): the
// given --tls-cert-file/--tls-private-key-file, else
// <cert-dir>/<pair-name>.{crt,key} (kubelet, kube-scheduler,
// kube-controller-manager), made self-signed at the first start and kept
// after. With no --cert-dir (the scheduler's and controller-manager's
// default) the pair is made at each start and kept in memory only, as
// upstream does.

import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selfSignedCertKey } from '@kubelab/pki';

export interface ServingCertificate {
  certPem: string;
  keyPem: string;
}

export interface ServingCertificateOptions {
  /** --tls-cert-file and --tls-private-key-file, used as they are. */
  given?: ServingCertificate;
  /** --cert-dir; '' keeps a generated pair in memory. */
  certDir: string;
  /** The files' base name (upstream PairName). */
  pairName: string;
  /** The certificate's host: its CN `<host>@<unix>` and first name or address. */
  host: string;
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

export async function servingCertificate(o: ServingCertificateOptions): Promise<ServingCertificate & { certFile?: string }> {
  if (o.given) return o.given;
  const generate = () => selfSignedCertKey(o.host, { ...(o.dnsNames ? { dnsNames: o.dnsNames } : {}), ...(o.ipAddresses ? { ipAddresses: o.ipAddresses } : {}) });
  if (!o.certDir) {
    const pair = await generate();
    return { certPem: pair.cert, keyPem: pair.key };
  }
  const certFile = join(o.certDir, `${o.pairName}.crt`);
  const keyFile = join(o.certDir, `${o.pairName}.key`);
  if (existsSync(certFile) && existsSync(keyFile)) return { certPem: await readFile(certFile, 'utf8'), keyPem: await readFile(keyFile, 'utf8'), certFile };
  const pair = await generate();
  await mkdir(o.certDir, { recursive: true });
  await writeFile(certFile, pair.cert, { mode: 0o644 });
  await writeFile(keyFile, pair.key, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  return { certPem: pair.cert, keyPem: pair.key, certFile };
}
