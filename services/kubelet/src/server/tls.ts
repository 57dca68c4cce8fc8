// The kubelet's serving certificate (upstream InitializeTLS): the given
// --tls-cert-file/--tls-private-key-file, else <cert-dir>/kubelet.{crt,key},
// made self-signed for the node's name at the first start and kept after,
// as a kubeadm node's kubelet does without serverTLSBootstrap.

import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selfSignedCertKey } from '@kubelab/pki';

export interface ServingCertificate {
  certPem: string;
  keyPem: string;
}

export async function kubeletServingCertificate(o: { given?: ServingCertificate; certDir: string; nodeName: string }): Promise<ServingCertificate & { certFile?: string }> {
  if (o.given) return o.given;
  const certFile = join(o.certDir, 'kubelet.crt');
  const keyFile = join(o.certDir, 'kubelet.key');
  if (existsSync(certFile) && existsSync(keyFile)) return { certPem: await readFile(certFile, 'utf8'), keyPem: await readFile(keyFile, 'utf8'), certFile };
  const pair = await selfSignedCertKey(o.nodeName);
  await mkdir(o.certDir, { recursive: true });
  await writeFile(certFile, pair.cert, { mode: 0o644 });
  await writeFile(keyFile, pair.key, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  return { certPem: pair.cert, keyPem: pair.key, certFile };
}
