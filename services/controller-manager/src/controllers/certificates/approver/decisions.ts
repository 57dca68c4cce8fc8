// The approver's decision (upstream pkg/controller/certificates/approver
// sarapprove.go): a kubelet client request is recognised as a node's own
// renewal (the requestor is the CN it asks for: `selfnodeclient`) or as a
// new node client (`nodeclient`, e.g. from a bootstrap token); each
// recognition names the SubjectAccessReview that may approve it.

import type { CertificateSigningRequest } from '@kubelab/api';
import { SIGNER_KUBE_APISERVER_CLIENT_KUBELET, hasTrueCondition } from '@kubelab/api';
import { kubeletClientCsrError, type RequestSubject } from '../requests.js';

/** What a SubjectAccessReview for the requestor must allow: create on certificatesigningrequests/<subresource>. */
export interface ApprovalPermission {
  subresource: 'selfnodeclient' | 'nodeclient';
  /** The Approved condition's message when it is allowed. */
  message: string;
}

export const SELF_NODE_CLIENT: ApprovalPermission = { subresource: 'selfnodeclient', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' };
export const NODE_CLIENT: ApprovalPermission = { subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' };

/** Nothing to decide: already issued, approved or denied. */
export function isSettled(csr: CertificateSigningRequest): boolean {
  return Boolean(csr.status?.certificate) || hasTrueCondition(csr, 'Approved') || hasTrueCondition(csr, 'Denied');
}

/** The permissions to try, in upstream's order (self first); empty: not a request this approver handles. */
export function approvalPermissions(csr: CertificateSigningRequest, request: RequestSubject): ApprovalPermission[] {
  if (csr.spec.signerName !== SIGNER_KUBE_APISERVER_CLIENT_KUBELET) return [];
  if (kubeletClientCsrError(request, csr.spec.usages ?? []) !== undefined) return [];
  return csr.spec.username === request.commonName ? [SELF_NODE_CLIENT, NODE_CLIENT] : [NODE_CLIENT];
}
