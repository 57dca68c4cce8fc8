// The csrapproving controller (upstream pkg/controller/certificates/approver):
// approves kubelet client requests when a SubjectAccessReview says the
// requestor may create certificatesigningrequests/nodeclient (a bootstrap
// token's group, by kubeadm's binding) or /selfnodeclient (a node renewing
// its own certificate). Anything else waits for a human (`kubectl
// certificate approve`).

import type { CertificateSigningRequest } from '@kubelab/api';
import { isNotFound } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { ControllerContext } from '../../../util/controller.js';
import { CertificateController, parseRequest } from '../certificate-controller.js';
import { approvalPermissions, isSettled } from './decisions.js';

/** authorization.k8s.io/v1 SubjectAccessReviewSpec, the fields the approver sends. */
export interface SubjectAccessReviewSpec {
  user?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  resourceAttributes: { group: string; version: string; resource: string; subresource: string; verb: string };
}

/** Asks the authorizer on the requestor's behalf (small, so tests fake it). */
export interface SubjectAccessReviewer {
  allowed(spec: SubjectAccessReviewSpec): Promise<boolean>;
}

const SAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' } as const;

/** The apiserver's SubjectAccessReview, created through the generic client. */
export function apiserverSubjectAccessReviewer(clientset: Clientset): SubjectAccessReviewer {
  return {
    async allowed(spec) {
      try {
        const review = await clientset.resource<{ apiVersion: string; kind: string; metadata: object; status?: { allowed?: boolean } }>(SAR).create({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          metadata: {},
          spec,
        } as never);
        return review.status?.allowed === true;
      } catch (e) {
        if (isNotFound(e)) throw new Error('subjectaccessreviews.authorization.k8s.io is not served by this apiserver: no request can be auto-approved', { cause: e });
        throw e;
      }
    },
  };
}

export class CsrApprovingController extends CertificateController {
  constructor(
    ctx: ControllerContext,
    private readonly reviewer: SubjectAccessReviewer = apiserverSubjectAccessReviewer(ctx.clientset),
  ) {
    super('csrapproving', ctx);
  }

  protected async handle(csr: CertificateSigningRequest): Promise<void> {
    if (isSettled(csr)) return;
    const tried = approvalPermissions(csr, parseRequest(csr));
    for (const p of tried) {
      const ok = await this.reviewer.allowed({
        ...(csr.spec.username !== undefined ? { user: csr.spec.username } : {}),
        ...(csr.spec.uid ? { uid: csr.spec.uid } : {}),
        ...(csr.spec.groups ? { groups: csr.spec.groups } : {}),
        ...(csr.spec.extra ? { extra: csr.spec.extra } : {}),
        resourceAttributes: { group: 'certificates.k8s.io', version: '*', resource: 'certificatesigningrequests', subresource: p.subresource, verb: 'create' },
      });
      if (!ok) continue;
      // UpdateApproval as upstream: the object as read (its resourceVersion a precondition) plus the condition.
      csr.status = { ...csr.status, conditions: [...(csr.status?.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: p.message }] };
      await this.ctx.clientset.certificates.certificateSigningRequests().update(csr, { subresource: 'approval' });
      return;
    }
    // Upstream's ignorable error: retried with backoff, since permissions may still be granted.
    if (tried.length > 0) throw new Error(`recognized csr "${csr.metadata.name}" as [${tried.map((p) => p.subresource).join(' ')}] but subject access review was not approved`);
  }
}
