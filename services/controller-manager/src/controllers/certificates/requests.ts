// What a CSR asks for, checked against what a signer issues (upstream
// pkg/apis/certificates/helpers.go ValidateKubeletClientCSR /
// ValidateKubeletServingCSR and the kube-apiserver-client signer's usage
// check): pure functions over the parsed request, messages as upstream.

import type { VerifiedCsr } from '@kubelab/pki';

/** The parts of a parsed request the checks read. */
export type RequestSubject = Pick<VerifiedCsr, 'commonName' | 'organizations' | 'dnsNames' | 'ipAddresses' | 'emailAddresses' | 'uris'>;

const sameSet = (a: readonly string[], b: readonly string[]) => new Set(a).size === new Set(b).size && [...new Set(a)].every((x) => b.includes(x));
const sorted = (xs: readonly string[]) => `[${[...xs].sort().join(' ')}]`;

const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['digital signature', 'client auth'];
const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

const onlySystemNodes = (r: RequestSubject) => r.organizations.length === 1 && r.organizations[0] === 'system:nodes';

/** A kubelet's client certificate: O system:nodes only, CN system:node:<name>, no SANs, client usages. Undefined when it is one. */
export function kubeletClientCsrError(r: RequestSubject, usages: readonly string[]): string | undefined {
  if (!onlySystemNodes(r)) return 'subject organization is not system:nodes';
  if (r.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (r.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (r.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (r.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!r.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, KUBELET_CLIENT_USAGES) && !sameSet(usages, KUBELET_CLIENT_USAGES_NO_RSA)) return `usages did not match ${sorted(KUBELET_CLIENT_USAGES)}`;
  return undefined;
}

/** A kubelet's serving certificate: O system:nodes only, a DNS or IP SAN, serving usages, CN system:node:<name>. */
export function kubeletServingCsrError(r: RequestSubject, usages: readonly string[]): string | undefined {
  if (!onlySystemNodes(r)) return 'subject organization is not system:nodes';
  if (r.dnsNames.length === 0 && r.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (r.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (r.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, KUBELET_SERVING_USAGES) && !sameSet(usages, KUBELET_SERVING_USAGES_NO_RSA)) return `usages did not match ${sorted(KUBELET_SERVING_USAGES)}`;
  if (!r.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** kube-apiserver-client: only client usages, and client auth among them. */
export function apiserverClientUsagesError(usages: readonly string[]): string | undefined {
  const allowed = new Set(['digital signature', 'key encipherment', 'client auth']);
  for (const u of usages) if (!allowed.has(u)) return `invalid usage for client certificate: ${u}`;
  if (!usages.includes('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
}
