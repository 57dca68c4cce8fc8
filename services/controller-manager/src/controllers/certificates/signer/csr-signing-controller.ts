// The csrsigning controller (upstream pkg/controller/certificates/signer):
// issues approved requests of the kubernetes.io signers with the cluster CA
// (--cluster-signing-cert-file/--cluster-signing-key-file; kubeadm passes
// pki/ca.crt and ca.key), valid for spec.expirationSeconds capped by
// --cluster-signing-duration. A request that does not fit its signer gets a
// Failed condition (SignerValidationFailure) instead of a certificate.
// Upstream reloads the CA files when they change; kubelab reads them at start.

import { readFile } from 'node:fs/promises';
import type { CertificateSigningRequest } from '@kubelab/api';
import { formatTime } from '@kubelab/api';
import { CertificateAuthority } from '@kubelab/pki';
import { ignoreNotFound, type ControllerContext } from '../../../util/controller.js';
import { CertificateController, parseRequest } from '../certificate-controller.js';
import { certificateTtlMs, signerValidation, wantsSigning } from './decisions.js';

/** Where the signing CA comes from (a promise, so a CA loaded from files is read once, off the constructor). */
export type CaSource = () => Promise<CertificateAuthority>;

export function caFromFiles(certFile: string, keyFile: string): CaSource {
  let ca: Promise<CertificateAuthority> | undefined;
  return () => (ca ??= (async () => CertificateAuthority.fromPem(await readFile(certFile, 'utf8'), await readFile(keyFile, 'utf8')))());
}

export class CsrSigningController extends CertificateController {
  private readonly ca: CaSource;

  constructor(ctx: ControllerContext, ca?: CaSource) {
    super('csrsigning', ctx);
    this.ca = ca ?? caFromFiles(ctx.config.clusterSigningCertFile, ctx.config.clusterSigningKeyFile);
  }

  protected async handle(csr: CertificateSigningRequest): Promise<void> {
    if (!wantsSigning(csr)) return;
    const request = parseRequest(csr);
    const verdict = signerValidation(csr, request);
    const csrs = this.ctx.clientset.certificates.certificateSigningRequests();
    if (!verdict.sign) {
      csr.status = {
        ...csr.status,
        conditions: [...(csr.status?.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: verdict.message, lastUpdateTime: formatTime(this.clock.now()) }],
      };
      await ignoreNotFound(csrs.updateStatus(csr));
      return;
    }
    const ttlMs = certificateTtlMs(this.ctx.config.clusterSigningDurationMs, csr.spec.expirationSeconds);
    const pem = await (await this.ca()).signRequest(request, { usages: csr.spec.usages ?? [], ttlMs, now: new Date(this.clock.now()) });
    csr.status = { ...csr.status, certificate: Buffer.from(pem).toString('base64') };
    await ignoreNotFound(csrs.updateStatus(csr));
  }
}
