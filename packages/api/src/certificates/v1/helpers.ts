// Helpers over CertificateSigningRequests that the controllers and the kubelet
// share (upstream: pkg/controller/certificates helpers, certificates/v1 helpers).
import type { CertificateSigningRequest, RequestConditionType } from './types.js';

/** A condition of this type with status True (upstream HasTrueCondition). */
export function hasTrueCondition(csr: CertificateSigningRequest, type: RequestConditionType): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && (c.status === 'True' || !c.status));
}

/** Approved and not Denied (upstream IsCertificateRequestApproved). */
export const isApproved = (csr: CertificateSigningRequest): boolean => hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');

/** spec.request as PEM text (the JSON carries the bytes in base64). */
export const requestPem = (csr: CertificateSigningRequest): string => Buffer.from(csr.spec?.request ?? '', 'base64').toString('utf8');

/** status.certificate as PEM text; empty until issued. */
export const certificatePem = (csr: CertificateSigningRequest): string => Buffer.from(csr.status?.certificate ?? '', 'base64').toString('utf8');
