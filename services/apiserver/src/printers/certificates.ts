// Rows of CertificateSigningRequests (upstream printCertificateSigningRequest):
// `kubectl get csr` shows who asked (REQUESTOR), for which signer, for how
// long, and where the request stands: Pending, Approved or Denied, then
// ,Failed and ,Issued.

import { since, humanDuration } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

/** extractCSRStatus: Denied wins over Approved, else Pending; Failed and Issued are appended. */
export function csrCondition(csr: Obj): string {
  const types = new Set(((csr.status?.conditions as Obj[] | undefined) ?? []).map((c) => c?.type));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (csr.status?.certificate) s += ',Issued';
  return s;
}

export const certificateSigningRequestPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('SignerName', 'string', 'The requested signer (spec.signerName).'),
    col('Requestor', 'string', 'The user that created the request (spec.username).'),
    col('RequestedDuration', 'string', 'The requested validity of the certificate (spec.expirationSeconds).'),
    col('Condition', 'string', 'Pending, Approved or Denied, then Failed and Issued.'),
  ],
  cells(csr, now) {
    const spec: Obj = csr.spec ?? {};
    const duration = typeof spec.expirationSeconds === 'number' ? humanDuration(spec.expirationSeconds * 1000) : '<none>';
    return [csr.metadata?.name, since(csr.metadata?.creationTimestamp, now), spec.signerName || '<none>', spec.username ?? '', duration, csrCondition(csr)];
  },
};
