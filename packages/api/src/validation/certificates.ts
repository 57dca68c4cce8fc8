// Validation for certificates.k8s.io/v1 CertificateSigningRequests
// (pkg/apis/certificates/validation): any name, a CERTIFICATE REQUEST PEM
// block, usages from the known set without duplicates, a qualified
// signerName (never legacy-unknown through v1), at least ten minutes of
// expiration, conditions that stay, and a certificate that is only set once,
// through status. Each write path allows what it exists for: `approval` the
// Approved/Denied conditions, `status` the certificate. The request's
// signature is checked by the apiserver, which has the x509 library.
import { X509Certificate } from 'node:crypto';
import { KEY_USAGES, SIGNER_LEGACY_UNKNOWN, type CertificateSigningRequest, type CertificateSigningRequestCondition } from '../certificates/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { child, duplicate, forbidden, goValue, index, invalid, notSupported, required, tooLong } from './field.js';
import { validateObjectMeta, validateObjectMetaUpdate, type NameValidator } from './meta.js';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, isDNS1123Label, isDNS1123Subdomain } from './strings.js';
import { deepEqual, diffLines } from './util.js';

/** "We don't care what you call your certificate requests." */
const anyName: NameValidator = () => [];

interface Options {
  /** approval subresource: Approved/Denied may be added. */
  allowSettingApprovalConditions?: boolean;
  /** status subresource: status.certificate may be set (once). */
  allowSettingCertificate?: boolean;
  // Tolerated because the stored object already has them (compatibility with existing data).
  allowBothApprovedAndDenied?: boolean;
  allowLegacySignerName?: boolean;
  allowDuplicateConditionTypes?: boolean;
  allowEmptyConditionType?: boolean;
  allowArbitraryCertificate?: boolean;
  allowUnknownUsages?: boolean;
  allowDuplicateUsages?: boolean;
}

/** One PEM block: its label, whether it has headers, its bytes. */
export interface PemBlock {
  type: string;
  headers: boolean;
  bytes: Buffer;
}

const PEM_BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** The PEM blocks of a text in order (Go's pem.Decode in a loop); text between blocks is skipped, as there. */
export function decodePemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  for (const m of text.matchAll(PEM_BLOCK)) {
    const body = m[2]!;
    const headers = /^[^\s:]+:/m.test(body.split(/\r?\n\r?\n/)[0] ?? '') && /\r?\n\r?\n/.test(body);
    const b64 = (headers ? body.slice(body.search(/\r?\n\r?\n/)) : body).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) continue; // pem.Decode skips a block whose body is not base64
    out.push({ type: m[1]!, headers, bytes: Buffer.from(b64, 'base64') });
  }
  return out;
}

/** certificates.ParseCSR up to the ASN.1: the first PEM block must be a CERTIFICATE REQUEST. */
export function csrPemError(pem: string): string | undefined {
  const first = decodePemBlocks(pem)[0];
  if (!first || first.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  return undefined;
}

/** Go's %#v of a []byte, as a field error prints the request. */
export function goBytes(b64: string | undefined): { toString(): string } {
  const bytes = Buffer.from(b64 ?? '', 'base64');
  return goValue(`[]byte{${[...bytes].map((x) => `0x${x.toString(16)}`).join(', ')}}`);
}

/** validateCertificate: one or more CERTIFICATE blocks without headers, each an X.509 certificate. */
function certificateError(b64: string | undefined): string | undefined {
  if (!b64) return undefined;
  const blocks = decodePemBlocks(Buffer.from(b64, 'base64').toString('latin1'));
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(b.type)}`;
    if (b.headers) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(b.bytes);
    } catch (e) {
      return `x509: malformed certificate (${(e as Error).message})`;
    }
  }
  return blocks.length === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** ValidateSignerName: `<domain>/<path>` of DNS labels and subdomains, at most 571 characters. */
export function validateSignerName(path: string, signerName: string | undefined): FieldError[] {
  if (!signerName) return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(tooLong(path, DNS1123_SUBDOMAIN_MAX_LENGTH));
  const domainLabels = domain.split('.');
  for (const lbl of domainLabels) {
    const msgs = isDNS1123Label(lbl);
    if (msgs.length) {
      errs.push(...msgs.map((m) => invalid(path, domain, `validating label ${JSON.stringify(lbl)}: ${m}`)));
      break;
    }
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const lbl of rest.split('.')) {
    const msgs = isDNS1123Subdomain(lbl);
    if (msgs.length) {
      errs.push(...msgs.map((m) => invalid(path, rest, `validating label ${JSON.stringify(lbl)}: ${m}`)));
      break;
    }
  }
  const max = DNS1123_SUBDOMAIN_MAX_LENGTH + (DNS1123_SUBDOMAIN_MAX_LENGTH + 63 + 1) + 1;
  if (signerName.length > max) errs.push(tooLong(path, max));
  return errs;
}

const VALID_USAGES: ReadonlySet<string> = new Set(KEY_USAGES);
const SORTED_USAGES = [...KEY_USAGES].sort();
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);

function validateConditions(csr: CertificateSigningRequest, opts: Options): FieldError[] {
  const path = 'status.conditions';
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  (csr.status?.conditions ?? []).forEach((c, i) => {
    const at = index(path, i);
    if (!opts.allowEmptyConditionType && !c.type) errs.push(required(child(at, 'type')));
    const allowed = TRUE_ONLY_TYPES.has(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(required(child(at, 'status')));
    else if (!allowed.includes(c.status)) errs.push(notSupported(child(at, 'status'), c.status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (c.type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalid(child(at, 'type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (c.type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalid(child(at, 'type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(duplicate(child(at, 'type'), c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

function validateCsr(csr: CertificateSigningRequest, opts: Options): FieldError[] {
  const errs = validateObjectMeta(csr.metadata, false, anyName);
  const spec = csr.spec ?? ({} as CertificateSigningRequest['spec']);
  const pemError = csrPemError(Buffer.from(spec.request ?? '', 'base64').toString('latin1'));
  if (pemError) errs.push(invalid('spec.request', goBytes(spec.request), pemError));
  const usages = spec.usages ?? [];
  if (usages.length === 0) errs.push(required('spec.usages'));
  if (!opts.allowUnknownUsages) usages.forEach((u, i) => VALID_USAGES.has(u) || errs.push(notSupported(index('spec.usages', i), u, SORTED_USAGES)));
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(duplicate(index('spec.usages', i), u));
      seen.add(u);
    });
  }
  if (!opts.allowLegacySignerName && spec.signerName === SIGNER_LEGACY_UNKNOWN) {
    errs.push(invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  } else errs.push(...validateSignerName('spec.signerName', spec.signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const e = certificateError(csr.status?.certificate);
    if (e) errs.push(invalid('status.certificate', '<certificate data>', e));
  }
  return errs;
}

const conditionsOf = (csr: CertificateSigningRequest | undefined, type: string): CertificateSigningRequestCondition[] => (csr?.status?.conditions ?? []).filter((c) => c.type === type);

/** What the stored object already has wrong is tolerated on update (getValidationOptions). */
function compatibilityOptions(csr: CertificateSigningRequest, old: CertificateSigningRequest | undefined): Options {
  if (!old) return {};
  const types = (old.status?.conditions ?? []).map((c) => c.type);
  const usages = old.spec?.usages ?? [];
  return {
    allowBothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    allowLegacySignerName: old.spec?.signerName === SIGNER_LEGACY_UNKNOWN,
    allowDuplicateConditionTypes: new Set(types).size !== types.length,
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate: (csr.status?.certificate ?? '') === (old.status?.certificate ?? '') || certificateError(old.status?.certificate) !== undefined,
    allowUnknownUsages: usages.some((u) => !VALID_USAGES.has(u)),
    allowDuplicateUsages: new Set(usages).size !== usages.length,
  };
}

export function validateCertificateSigningRequest(csr: CertificateSigningRequest): FieldError[] {
  return validateCsr(csr, {});
}

function validateUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest, opts: Options): FieldError[] {
  const errs = validateCsr(csr, opts);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOf(csr, t).length < conditionsOf(old, t).length) errs.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const before = conditionsOf(old, t);
      const after = conditionsOf(csr, t);
      if (after.length > before.length) errs.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (after.length === before.length && !deepEqual(before, after)) {
        errs.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}\n${diffLines(before, after).join('\n')}`));
      }
    }
  }
  if ((csr.status?.certificate ?? '') !== (old.status?.certificate ?? '')) {
    if (!opts.allowSettingCertificate) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
    else if (old.status?.certificate) errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return [...errs, ...validateObjectMetaUpdate(csr.metadata, old.metadata)];
}

export function validateCertificateSigningRequestUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, compatibilityOptions(csr, old));
}

export function validateCertificateSigningRequestStatusUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, { ...compatibilityOptions(csr, old), allowSettingCertificate: true });
}

export function validateCertificateSigningRequestApprovalUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateUpdate(csr, old, { ...compatibilityOptions(csr, old), allowSettingApprovalConditions: true });
}
