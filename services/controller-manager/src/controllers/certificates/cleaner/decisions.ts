// Which CertificateSigningRequests the csrcleaner deletes (upstream
// pkg/controller/certificates/cleaner/cleaner.go): issued ones an hour after
// approval, denied and failed ones an hour after that condition, pending
// ones a day after creation, and any whose certificate has expired. Pure:
// the time and the certificate's notAfter reader come in.

import type { CertificateSigningRequest } from '@kubelab/api';

/** upstream approvedExpiration, deniedExpiration (also for Failed), pendingExpiration */
export const APPROVED_EXPIRATION_MS = 3600_000;
export const DENIED_EXPIRATION_MS = 3600_000;
export const PENDING_EXPIRATION_MS = 24 * 3600_000;

/** Why a request is cleaned, in upstream's log words; undefined to keep it. */
export type CleanReason = 'approved and issued more than 1h ago' | 'denied more than 1h ago' | 'failed more than 1h ago' | 'pending more than 24h' | 'certificate expired';

/** A set time more than `ms` before `now` (upstream isOlderThan: an unset time is never old). */
function olderThan(time: string | undefined, ms: number, now: number): boolean {
  if (!time) return false;
  const t = Date.parse(time);
  return Number.isFinite(t) && now - t > ms;
}

/**
 * `notAfter` reads the issued certificate's expiry (ms), undefined when the
 * PEM does not parse (upstream isExpired: then it is not expired).
 */
export function cleanReason(csr: CertificateSigningRequest, now: number, notAfter: (certificate: string) => number | undefined): CleanReason | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = Boolean(csr.status?.certificate);
  const approved = conditions.filter((c) => c.type === 'Approved');
  if (issued && approved.some((c) => olderThan(c.lastUpdateTime, APPROVED_EXPIRATION_MS, now))) return 'approved and issued more than 1h ago';
  if (conditions.some((c) => c.type === 'Denied' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now))) return 'denied more than 1h ago';
  if (conditions.some((c) => c.type === 'Failed' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now))) return 'failed more than 1h ago';
  // No condition at all is what kubectl shows as Pending.
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp, PENDING_EXPIRATION_MS, now)) return 'pending more than 24h';
  if (issued && approved.length > 0) {
    const expiry = notAfter(csr.status!.certificate!);
    if (expiry !== undefined && now > expiry) return 'certificate expired';
  }
  return undefined;
}
