// TLS bootstrap (upstream pkg/kubelet/certificate/bootstrap LoadClientCert),
// as `kubeadm join` sets it up: when --kubeconfig is missing or its client
// certificate has expired, the kubelet authenticates with the bootstrap
// token of --bootstrap-kubeconfig, asks for a system:node:<name> client
// certificate through a CertificateSigningRequest (named after its key, so a
// restart asks again under the same name), stores the issued pair in
// <root-dir>/pki and writes --kubeconfig pointing at it.

import { X509Certificate, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '@kubelab/component-base';
import { buildKubeconfig, createCsr, generateKeyPair, keyPairFromPem, privateKeyToPem } from '@kubelab/pki';
import { loadKubeconfig, type ClientCredentials } from '@kubelab/pki/kubeconfig';
import { clientUsages, digestedName, nodeSubject, requestCertificate, type CsrClient } from './request.js';
import { restCsrClient } from './rest.js';
import { CertificateFileStore } from './store.js';

export interface BootstrapOptions {
  kubeconfigPath: string;
  bootstrapKubeconfigPath: string;
  /** `<root-dir>/pki`. */
  certDir: string;
  nodeName: string;
  log: Logger;
  signal?: AbortSignal;
  /** The bootstrap transport (default: REST with the bootstrap kubeconfig's token). */
  csrClient?: (creds: ClientCredentials) => CsrClient;
  now?: () => Date;
}

/** isClientConfigStillValid: the kubeconfig exists and every certificate of its user is unexpired. */
export function kubeconfigStillValid(path: string, now = new Date()): boolean {
  return validClientCredentials(path, now) !== undefined;
}

/** The kubeconfig's credentials if it exists and every certificate of its user is unexpired. */
function validClientCredentials(path: string, now: Date): ClientCredentials | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const creds = loadKubeconfig(path);
    if (!creds.clientCertPem) return undefined;
    const certs = [...creds.clientCertPem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map((m) => new X509Certificate(m[0]));
    return certs.length > 0 && certs.every((c) => now < new Date(c.validTo)) ? creds : undefined;
  } catch {
    return undefined;
  }
}

/** writeKubeconfigFromBootstrapping: the bootstrap kubeconfig's cluster, the stored pair as the user (by path). */
export function writeKubeconfigFromBootstrapping(path: string, bootstrap: ClientCredentials, pemPath: string): void {
  const text = buildKubeconfig({
    clusterName: 'default-cluster',
    server: bootstrap.server,
    caPem: bootstrap.caPem ?? '',
    userName: 'default-auth',
    clientCertificateFile: pemPath,
    clientKeyFile: pemPath,
    contextName: 'default-context',
    namespace: 'default',
  });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
}

/**
 * Runs the bootstrap when needed; resolves once --kubeconfig holds a valid identity, with that kubeconfig's
 * credentials (read once: a hollow worker starts hundreds of kubelets, and each YAML read is ~1 ms).
 */
export async function loadClientCert(opts: BootstrapOptions): Promise<ClientCredentials> {
  const now = opts.now ?? (() => new Date());
  const valid = validClientCredentials(opts.kubeconfigPath, now());
  if (valid) {
    opts.log.info('kubeconfig has a valid client certificate; no bootstrap', { kubeconfig: opts.kubeconfigPath });
    return valid;
  }
  const bootstrap = loadKubeconfig(opts.bootstrapKubeconfigPath);
  const store = new CertificateFileStore(opts.certDir);
  const stored = store.current();
  if (stored && now() < stored.notAfter) {
    opts.log.info('using the stored client certificate', { path: store.currentPath });
    writeKubeconfigFromBootstrapping(opts.kubeconfigPath, bootstrap, store.currentPath);
    return loadKubeconfig(opts.kubeconfigPath);
  }
  // The key survives restarts until a certificate is issued for it, so the request keeps its name.
  const keyPath = join(opts.certDir, 'kubelet-client.key.tmp');
  let keyPem = existsSync(keyPath) ? readFileSync(keyPath, 'utf8') : '';
  if (!keyPem) {
    keyPem = await privateKeyToPem((await generateKeyPair('ECDSA-P256')).privateKey);
    mkdirSync(opts.certDir, { recursive: true });
    writeFileSync(keyPath, keyPem, { mode: 0o600 });
  }
  const subject = nodeSubject(opts.nodeName);
  const usages = clientUsages('ec');
  const csrPem = await createCsr(subject, await keyPairFromPem(keyPem));
  const publicKeyPem = createPublicKey(keyPem).export({ format: 'pem', type: 'spki' }) as string;
  const name = digestedName(publicKeyPem, subject, usages);
  opts.log.info('requesting a client certificate (TLS bootstrap)', { csr: name, server: bootstrap.server });
  const client = (opts.csrClient ?? restCsrClient)(bootstrap);
  const certPem = await requestCertificate(client, { name, csrPem, usages, ...(opts.signal ? { signal: opts.signal } : {}) });
  store.update(certPem, keyPem, now());
  writeKubeconfigFromBootstrapping(opts.kubeconfigPath, bootstrap, store.currentPath);
  rmSync(keyPath, { force: true });
  opts.log.info('client certificate issued', { csr: name, path: store.currentPath });
  return loadKubeconfig(opts.kubeconfigPath);
}
