// The signer's decisions (upstream pkg/controller/certificates/signer):
// which approved requests a kubernetes.io signer issues, which it fails
// with SignerValidationFailure, and for how long a certificate is valid.

import type { CertificateSigningRequest } from '@kubelab/api';
import { SIGNER_KUBELET_SERVING, SIGNER_KUBE_APISERVER_CLIENT, SIGNER_KUBE_APISERVER_CLIENT_KUBELET, SIGNER_LEGACY_UNKNOWN, hasTrueCondition, isApproved } from '@kubelab/api';
import { apiserverClientUsagesError, kubeletClientCsrError, kubeletServingCsrError, type RequestSubject } from '../requests.js';

/** The signers the controller runs, one each as upstream. */
export const KUBERNETES_SIGNERS = [SIGNER_KUBELET_SERVING, SIGNER_KUBE_APISERVER_CLIENT_KUBELET, SIGNER_KUBE_APISERVER_CLIENT, SIGNER_LEGACY_UNKNOWN] as const;

/** Before parsing: only approved, not failed, not yet issued requests of a signer we run. */
export function wantsSigning(csr: CertificateSigningRequest): boolean {
  if (csr.status?.certificate) return false;
  if (!isApproved(csr) || hasTrueCondition(csr, 'Failed')) return false;
  return (KUBERNETES_SIGNERS as readonly string[]).includes(csr.spec.signerName);
}

/** After parsing: sign, or fail with the reason the request does not fit its signer. */
export function signerValidation(csr: CertificateSigningRequest, request: RequestSubject): { sign: true } | { sign: false; message: string } {
  const usages = csr.spec.usages ?? [];
  let err: string | undefined;
  switch (csr.spec.signerName) {
    case SIGNER_KUBELET_SERVING:
      err = kubeletServingCsrError(request, usages);
      break;
    case SIGNER_KUBE_APISERVER_CLIENT_KUBELET:
      err = kubeletClientCsrError(request, usages);
      break;
    case SIGNER_KUBE_APISERVER_CLIENT:
      err = apiserverClientUsagesError(usages);
      break;
  }
  return err === undefined ? { sign: true } : { sign: false, message: err };
}

const MIN_TTL_MS = 10 * 60 * 1000;

/** The certificate's lifetime: spec.expirationSeconds, at least 10 minutes, at most --cluster-signing-duration. */
export function certificateTtlMs(clusterSigningDurationMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return clusterSigningDurationMs;
  const d = expirationSeconds * 1000;
  return d > clusterSigningDurationMs ? clusterSigningDurationMs : d < MIN_TTL_MS ? MIN_TTL_MS : d;
}
