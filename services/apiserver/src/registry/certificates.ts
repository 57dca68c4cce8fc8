// The CertificateSigningRequest strategies (upstream
// pkg/registry/certificates/certificates/strategy.go): the requesting user is
// recorded in spec at create; the object itself never changes spec or status
// after that; `status` writes the certificate and Failed (keeping the
// Approved/Denied instances); `approval` writes the conditions and nothing
// else. Condition timestamps are filled by the server.
//
// Who may approve and sign is not decided here but by the CertificateApproval
// and CertificateSigning admission plugins (admission/certificates.ts).

import { badRequest, goBytes, type FieldError } from '@kubelab/api';
import { verifyCsr } from '@kubelab/pki';
import type { UserInfo } from '@kubelab/api';
import { nowTime } from './meta.js';

type Obj = Record<string, any>;

/** PrepareForCreate: no status yet, the creator's identity in spec. */
export function prepareCsrForCreate(o: Obj, user: UserInfo | undefined): void {
  o.status = {};
  const spec: Obj = (o.spec ??= {});
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (!user) return;
  spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
}

/** preserveConditionInstances: the stored instances of a type replace the sent ones when their counts agree. */
function preserveConditionInstances(next: Obj[], old: Obj[], type: string): void {
  const oldIdx = old.flatMap((c, i) => (c?.type === type ? [i] : []));
  const newIdx = next.flatMap((c, i) => (c?.type === type ? [i] : []));
  if (oldIdx.length !== newIdx.length) return;
  oldIdx.forEach((oi, k) => (next[newIdx[k]!] = old[oi]!));
}

/** populateConditionTimestamps: lastUpdateTime now when unset; lastTransitionTime kept from a stored condition of the same type and status, else now. */
function populateConditionTimestamps(next: Obj[], old: Obj[]): void {
  const now = nowTime();
  next.forEach((c, i) => {
    if (!c || typeof c !== 'object') return;
    const out = { ...c };
    if (!out.lastUpdateTime) out.lastUpdateTime = now;
    if (!out.lastTransitionTime) out.lastTransitionTime = old.find((o) => o?.type === out.type && o?.status === out.status && o?.lastTransitionTime)?.lastTransitionTime ?? now;
    next[i] = out;
  });
}

/** PrepareForUpdate of the object, `status` and `approval`: what each write may change. */
export function prepareCsrForUpdate(next: Obj, old: Obj, subresource: string | undefined): Obj {
  const out: Obj = { ...next, spec: old.spec };
  if (subresource === undefined) {
    if (old.status === undefined) delete out.status;
    else out.status = old.status;
    return out;
  }
  const oldConditions: Obj[] = Array.isArray(old.status?.conditions) ? old.status.conditions : [];
  const status: Obj = { ...(next.status ?? {}) };
  const conditions: Obj[] = Array.isArray(status.conditions) ? [...status.conditions] : [];
  if (subresource === 'status') {
    preserveConditionInstances(conditions, oldConditions, 'Approved');
    preserveConditionInstances(conditions, oldConditions, 'Denied');
  } else if (subresource === 'approval') {
    if (old.status?.certificate === undefined) delete status.certificate;
    else status.certificate = old.status.certificate;
  } else throw badRequest(`subresource ${subresource} is not served for certificatesigningrequests`);
  populateConditionTimestamps(conditions, oldConditions);
  if (conditions.length > 0 || status.conditions !== undefined) status.conditions = conditions;
  out.status = status;
  return out;
}

/**
 * The request's ASN.1 and self-signature (upstream validateCSR's ParseCSR +
 * CheckSignature past the PEM block, which @kubelab/api checks): only where
 * the request is new, on create.
 */
export function validateCsrRequest(o: Obj): FieldError[] {
  const request = typeof o.spec?.request === 'string' ? o.spec.request : '';
  try {
    verifyCsr(Buffer.from(request, 'base64').toString('latin1'));
    return [];
  } catch (e) {
    const msg = (e as Error).message;
    // The PEM-level error is @kubelab/api's to report (once).
    if (msg === 'PEM block type must be CERTIFICATE REQUEST') return [];
    return [{ type: 'FieldValueInvalid', field: 'spec.request', badValue: goBytes(request), detail: msg }];
  }
}
