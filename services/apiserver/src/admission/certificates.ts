// The certificates admission plugins (upstream plugin/pkg/admission/
// certificates/{approval,signing,subjectrestriction} and
// pkg/certauthorization): who may approve a CertificateSigningRequest is
// decided per signer (verb `approve` on `signers`, named by the signerName
// or its `<domain>/*`), who may issue its certificate likewise (`sign`), and
// nobody obtains a system:masters client certificate through the API.

import { deepEqual, forbidden, type KubeObject, GROUP_MASTERS, type UserInfo } from '@kubelab/api';
import { verifyCsr } from '@kubelab/pki';
import type { AuthorizationAttributes, Authorizer } from '../authorization/types.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const GROUP = 'certificates.k8s.io';
/** upstream certificatesv1.KubeAPIServerClientSignerName */
export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

type Csr = KubeObject & { spec?: { signerName?: string; request?: string }; status?: { certificate?: string; conditions?: unknown[] } };

const isCsrs = (a: AdmissionAttributes) => a.info.group === GROUP && a.info.resource === 'certificatesigningrequests';

/** `verb` on the signer `name` (upstream buildAttributes: any version, cluster scope). */
export function signerAttributes(user: UserInfo, verb: string, name: string): AuthorizationAttributes {
  return { user, verb, resourceRequest: true, path: '', namespace: '', apiGroup: GROUP, apiVersion: '*', resource: 'signers', subresource: '', name };
}

/** Allowed for the signerName itself, or for every signer of its domain (`kubernetes.io/*`) (upstream IsAuthorizedForSignerName). */
export function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): boolean {
  if (authorizer.authorize(signerAttributes(user, verb, signerName)).decision === 'Allow') return true;
  const domain = signerName.split('/')[0]!;
  return authorizer.authorize(signerAttributes(user, verb, `${domain}/*`)).decision === 'Allow';
}

/** The refusal admission gives (upstream admission.NewForbidden: the resource without its subresource, the object's name). */
const refuse = (a: AdmissionAttributes, why: string) => forbidden(a.info, a.name, why);

/** CertificateApproval: a write of the approval subresource needs `approve` on the (new) object's signer. */
export function certificateApproval(authorizer: Authorizer): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    validate(a) {
      if (!isCsrs(a) || a.subresource !== 'approval' || a.operation !== 'UPDATE' || !a.ctx.user) return;
      // The new object's signer: a user may not move a request to a signer they may approve for.
      const signerName = (a.object as Csr | undefined)?.spec?.signerName ?? '';
      if (!isAuthorizedForSignerName(authorizer, a.ctx.user, 'approve', signerName)) throw refuse(a, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    },
  };
}

/** CertificateSigning: a status write that changes the certificate or the conditions needs `sign` on the stored object's signer. */
export function certificateSigning(authorizer: Authorizer): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    validate(a) {
      if (!isCsrs(a) || a.subresource !== 'status' || a.operation !== 'UPDATE' || !a.ctx.user) return;
      const old = a.oldObject as Csr | undefined;
      const cur = a.object as Csr | undefined;
      if (old?.status?.certificate === cur?.status?.certificate && deepEqual(old?.status?.conditions, cur?.status?.conditions)) return;
      const signerName = old?.spec?.signerName ?? '';
      if (!isAuthorizedForSignerName(authorizer, a.ctx.user, 'sign', signerName)) throw refuse(a, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    },
  };
}

/** CertificateSubjectRestriction: no request to the kube-apiserver-client signer may name system:masters in its subject. */
export const certificateSubjectRestriction: AdmissionPlugin = {
  name: 'CertificateSubjectRestriction',
  validate(a) {
    if (!isCsrs(a) || a.operation !== 'CREATE' || a.subresource) return;
    const spec = (a.object as Csr | undefined)?.spec;
    if (spec?.signerName !== KUBE_APISERVER_CLIENT_SIGNER) return;
    let organizations: string[];
    try {
      organizations = verifyCsr(Buffer.from(spec.request ?? '', 'base64').toString('latin1')).organizations;
    } catch (e) {
      throw refuse(a, `failed to parse CSR: ${(e as Error).message}`);
    }
    if (organizations.includes(GROUP_MASTERS)) throw refuse(a, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with ${GROUP_MASTERS} group is not allowed`);
  },
};
