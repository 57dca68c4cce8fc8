// The shared loop of the CSR controllers (upstream
// pkg/controller/certificates/certificate_controller.go): every add or
// change of a CertificateSigningRequest enqueues its name; sync re-reads it
// from the lister, leaves issued ones alone and hands a copy to the
// controller's handler. A handler that throws is retried with backoff.

import type { CertificateSigningRequest } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { verifyCsr, type VerifiedCsr } from '@kubelab/pki';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

export abstract class CertificateController extends QueueController {
  protected readonly lister: Lister<CertificateSigningRequest>;

  constructor(
    name: string,
    protected readonly ctx: ControllerContext,
  ) {
    super(name, ctx.logger, queueOptions(ctx));
    const inf = ctx.informers.certificates.certificateSigningRequests();
    this.lister = inf.lister();
    inf.addEventHandler({
      onAdd: (csr) => this.enqueue(csr.metadata.name ?? ''),
      onUpdate: (_old, csr) => this.enqueue(csr.metadata.name ?? ''),
    });
  }

  async sync(name: string): Promise<void> {
    const csr = this.lister.get(name);
    if (!csr || csr.status?.certificate) return;
    await this.handle(structuredClone(csr));
  }

  /** One request, already copied out of the cache. */
  protected abstract handle(csr: CertificateSigningRequest): Promise<void>;
}

/** The request PEM of spec.request, parsed and verified; a request that does not parse is the sync's error. */
export function parseRequest(csr: CertificateSigningRequest): VerifiedCsr {
  try {
    return verifyCsr(Buffer.from(csr.spec.request ?? '', 'base64').toString('latin1'));
  } catch (e) {
    throw new Error(`unable to parse csr "${csr.metadata.name ?? ''}": ${(e as Error).message}`, { cause: e });
  }
}
