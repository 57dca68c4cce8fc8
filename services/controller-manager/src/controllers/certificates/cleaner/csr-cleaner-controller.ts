// The csrcleaner (upstream pkg/controller/certificates/cleaner): once an
// hour it walks the CertificateSigningRequests in its informer's cache and
// deletes those past their keeping time (decisions.ts). A periodic sweep of
// the lister, as upstream; no API polling.

import type { CertificateSigningRequest } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { certificateInfo } from '@kubelab/pki';
import { errText, ignoreNotFound, type Controller, type ControllerContext } from '../../../util/controller.js';
import { runEvery } from '../../../util/periodic.js';
import { cleanReason } from './decisions.js';

/** upstream pollingInterval */
export const POLLING_INTERVAL_MS = 3600_000;

/** The notAfter of status.certificate (base64 PEM); undefined when it does not parse. */
function certificateNotAfter(certificate: string): number | undefined {
  try {
    return certificateInfo(Buffer.from(certificate, 'base64').toString('utf8')).notAfter.getTime();
  } catch {
    return undefined;
  }
}

export class CsrCleanerController implements Controller {
  readonly name = 'csrcleaner';
  private readonly lister: Lister<CertificateSigningRequest>;

  constructor(private readonly ctx: ControllerContext) {
    this.lister = ctx.informers.certificates.certificateSigningRequests().lister();
  }

  run(signal: AbortSignal): Promise<void> {
    return runEvery(
      this.ctx.clock,
      () => POLLING_INTERVAL_MS,
      signal,
      () => this.sweep(),
      (err) => this.ctx.logger.warn('csr cleaning failed', { err: errText(err) }),
    );
  }

  /** One pass over the cache (exposed as a step for tests); one request's failure does not stop the others. */
  async sweep(): Promise<void> {
    const now = this.ctx.clock.now();
    for (const csr of this.lister.list()) {
      const reason = cleanReason(csr, now, certificateNotAfter);
      if (!reason) continue;
      const name = csr.metadata.name ?? '';
      this.ctx.logger.info('Cleaning CSR', { csr: name, reason });
      try {
        await ignoreNotFound(this.ctx.clientset.certificates.certificateSigningRequests().delete(name));
      } catch (err) {
        this.ctx.logger.warn('unable to delete CSR', { csr: name, err: errText(err) });
      }
    }
  }
}
