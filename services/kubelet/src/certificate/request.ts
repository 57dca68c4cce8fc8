// Asking for a certificate through the certificates API (upstream client-go
// util/certificate/csr RequestCertificate + WaitForCertificate): create the
// CertificateSigningRequest (an existing one of the same name is adopted if
// it carries the same request), then follow it until it is issued, denied or
// failed. Two transports implement CsrClient: REST with the bootstrap token
// (rest.ts) and the clientset with the node's own identity.

import { createHash, createPublicKey } from 'node:crypto';
import { SIGNER_KUBE_APISERVER_CLIENT_KUBELET, certificatePem, hasTrueCondition, isAlreadyExists, type CertificateSigningRequest, type WatchEvent } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { verifyCsr } from '@kubelab/pki';

/** What following a request needs of a transport. */
export interface CsrClient {
  create(csr: CertificateSigningRequest): Promise<CertificateSigningRequest>;
  get(name: string): Promise<CertificateSigningRequest>;
  /** Events of one request after resourceVersion; ends when the server closes it or stop() is called. */
  watch(name: string, resourceVersion: string): AsyncIterable<WatchEvent<CertificateSigningRequest>> & { stop(): void };
}

/** The node's client identity, as the kubelet requests it. */
export const nodeSubject = (nodeName: string) => ({ commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] });

/** Client usages: key encipherment only for RSA keys (upstream's usages for the key type). */
export function clientUsages(keyType: 'rsa' | 'ec'): string[] {
  return keyType === 'rsa' ? ['digital signature', 'key encipherment', 'client auth'] : ['digital signature', 'client auth'];
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * digestedName: `node-csr-` + base64url(SHA-512/256) over the public key,
 * CN, O and usages, each base64url and `|`-delimited, so a kubelet that
 * restarts with the same key asks under the same name.
 */
export function digestedName(publicKeyPem: string, subject: { commonName: string; organizations: readonly string[] }, usages: readonly string[]): string {
  const spki = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' });
  const h = createHash('sha512-256');
  for (const part of [spki, subject.commonName, ...subject.organizations, ...usages]) h.update(`${b64url(part)}|`);
  return `node-csr-${b64url(h.digest())}`;
}

export class CertificateRequestError extends Error {
  override name = 'CertificateRequestError';
}

/** The issued PEM, or an error for a denied or failed request, or undefined while pending. */
export function outcome(csr: CertificateSigningRequest): string | undefined {
  const cond = (t: string) => csr.status?.conditions?.find((c) => c.type === t);
  if (hasTrueCondition(csr, 'Denied')) throw new CertificateRequestError(`certificate signing request is denied, reason: ${cond('Denied')?.reason ?? ''}, message: ${cond('Denied')?.message ?? ''}`);
  if (hasTrueCondition(csr, 'Failed')) throw new CertificateRequestError(`certificate signing request failed, reason: ${cond('Failed')?.reason ?? ''}, message: ${cond('Failed')?.message ?? ''}`);
  if (hasTrueCondition(csr, 'Approved') && csr.status?.certificate) return certificatePem(csr);
  return undefined;
}

export interface RequestOptions {
  /** A fixed name (bootstrap: digestedName) or undefined for `generateName: csr-` (rotation). */
  name?: string;
  csrPem: string;
  usages: string[];
  signal?: AbortSignal;
}

/**
 * Why an existing request of the same name cannot stand for ours, or
 * undefined (upstream's csr.ensureCompatible): the same signer, the same
 * usages, the same subject and public key. The bytes may differ: a request
 * made again with the same key carries a new signature (ECDSA's is random).
 * Pure.
 */
export function incompatibility(want: CertificateSigningRequest['spec'], orig: CertificateSigningRequest['spec']): string | undefined {
  if (want.signerName !== orig.signerName) return `csr signerNames differ: new "${want.signerName}", orig: "${orig.signerName}"`;
  const usages = (u: readonly string[] | undefined) => [...new Set(u ?? [])].sort().join(' ');
  if (usages(want.usages) !== usages(orig.usages)) return `csr usages differ: new [${usages(want.usages)}], orig [${usages(orig.usages)}]`;
  let a, b;
  try {
    a = verifyCsr(Buffer.from(want.request, 'base64').toString('utf8'));
    b = verifyCsr(Buffer.from(orig.request, 'base64').toString('utf8'));
  } catch (err) {
    return `unable to parse the csr: ${(err as Error).message}`;
  }
  const subject = (c: typeof a) => `CN=${c.commonName},O=${[...c.organizations].sort().join('+')}`;
  if (subject(a) !== subject(b)) return `csr subjects differ: new ${subject(a)}, orig: ${subject(b)}`;
  if (!Buffer.from(a.publicKey.rawData).equals(Buffer.from(b.publicKey.rawData))) return 'public key of csr does not match private key';
  return undefined;
}

/** Creates (or adopts) the request and resolves with the issued certificate PEM. */
export async function requestCertificate(client: CsrClient, opts: RequestOptions): Promise<string> {
  const request = Buffer.from(opts.csrPem).toString('base64');
  const obj: CertificateSigningRequest = {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: opts.name ? { name: opts.name } : { generateName: 'csr-' },
    spec: { request, signerName: SIGNER_KUBE_APISERVER_CLIENT_KUBELET, usages: opts.usages },
  };
  let csr: CertificateSigningRequest;
  try {
    csr = await client.create(obj);
  } catch (e) {
    if (!opts.name || !isAlreadyExists(e)) throw e;
    csr = await client.get(opts.name);
    const why = incompatibility(obj.spec, csr.spec);
    if (why) throw new CertificateRequestError(`retrieved csr is not compatible: ${why}`, { cause: e });
  }
  return waitForCertificate(client, csr, opts.signal);
}

/** Follows one request (get, then watch from its revision, again when a watch ends) until it settles. */
export async function waitForCertificate(client: CsrClient, first: CertificateSigningRequest, signal?: AbortSignal): Promise<string> {
  let csr = first;
  const name = first.metadata.name!;
  for (;;) {
    const pem = outcome(csr);
    if (pem) return pem;
    if (signal?.aborted) throw new CertificateRequestError(`timed out waiting for the certificate of ${name}`);
    const w = client.watch(name, csr.metadata.resourceVersion ?? '');
    const stop = () => w.stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const ev of w) {
        if (ev.type === 'DELETED') throw new CertificateRequestError(`csr ${name} was deleted`);
        if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') continue;
        csr = ev.object;
        const issued = outcome(csr);
        if (issued) return issued;
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      w.stop();
    }
    if (!signal?.aborted) csr = await client.get(name);
  }
}

/** The CsrClient of a clientset (the node's identity, for rotation). */
export function clientsetCsrClient(cs: Clientset): CsrClient {
  const csrs = cs.certificates.certificateSigningRequests();
  return {
    create: (csr) => csrs.create(csr),
    get: (name) => csrs.get(name),
    watch: (name, resourceVersion) => csrs.watch({ fieldSelector: `metadata.name=${name}`, resourceVersion }),
  };
}
