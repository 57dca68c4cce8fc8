import { beforeAll, describe, expect, it } from 'vitest';
import { lookupResource, type KubeObject } from '@kubelab/api';
import { createCsr, generateKeyPair } from '@kubelab/pki';
import type { UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer } from '../authorization/types.js';
import { certificateApproval, certificateSigning, certificateSubjectRestriction } from './certificates.js';
import type { AdmissionAttributes, Operation } from './types.js';
import { outcome } from '../testing/status.js';

const CSRS = lookupResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
const APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';

/** RBAC-like grants: `user verb signer`. */
const GRANTS = new Set(['ctl approve kubernetes.io/kube-apiserver-client-kubelet', 'ctl sign kubernetes.io/*', 'dom approve example.com/*']);
const asked: string[] = [];
const authorizer: Authorizer = {
  authorize: (a: AuthorizationAttributes) => {
    asked.push(`${a.verb} ${a.apiGroup}/${a.resource} ${a.name} (${a.apiVersion})`);
    return { decision: GRANTS.has(`${a.user.name} ${a.verb} ${a.name}`) ? 'Allow' : 'NoOpinion', reason: '' };
  },
};

const csr = (signerName: string, status: Record<string, unknown> = {}, request = ''): KubeObject =>
  ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'csr-1' }, spec: { signerName, request }, status }) as unknown as KubeObject;

function attrs(operation: Operation, user: UserInfo, object: KubeObject, subresource?: string, oldObject?: KubeObject): AdmissionAttributes {
  return {
    operation,
    info: CSRS,
    namespace: '',
    name: 'csr-1',
    ...(subresource ? { subresource } : {}),
    object,
    ...(oldObject ? { oldObject } : {}),
    ctx: { user },
    dryRun: false,
    onRollback: () => {},
    onCommit: () => {},
  };
}

const who = (name: string): UserInfo => ({ name, groups: ['system:authenticated'] });
const APPROVED = { conditions: [{ type: 'Approved', status: 'True' }] };

describe('CertificateApproval', () => {
  const approval = certificateApproval(authorizer);
  it.each([
    ['approve on the signer', 'ctl', 'kubernetes.io/kube-apiserver-client-kubelet', 'ok'],
    ['approve on the signer domain', 'dom', 'example.com/anything', 'ok'],
    [
      'no approve on the signer',
      'ctl',
      APISERVER_CLIENT,
      '403 certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"',
    ],
  ])('%s (%s, %s)', async (_what, user, signer, want) => {
    expect(await outcome(() => approval.validate!(attrs('UPDATE', who(user), csr(signer, APPROVED), 'approval', csr(signer))))).toBe(want);
  });

  it('asks for the signer by name, then for its domain, as upstream', async () => {
    asked.length = 0;
    await outcome(() => approval.validate!(attrs('UPDATE', who('jane'), csr('kubernetes.io/kubelet-serving', APPROVED), 'approval', csr('kubernetes.io/kubelet-serving'))));
    expect(asked).toEqual(['approve certificates.k8s.io/signers kubernetes.io/kubelet-serving (*)', 'approve certificates.k8s.io/signers kubernetes.io/* (*)']);
  });

  it('leaves other writes alone', async () => {
    expect(await outcome(() => approval.validate!(attrs('UPDATE', who('jane'), csr(APISERVER_CLIENT, APPROVED), 'status', csr(APISERVER_CLIENT))))).toBe('ok');
  });
});

describe('CertificateSigning', () => {
  const signing = certificateSigning(authorizer);
  it.each([
    ['a certificate set, with sign on the domain', 'ctl', { certificate: 'Q0VSVA==' }, 'ok'],
    [
      'a certificate set, without sign',
      'jane',
      { certificate: 'Q0VSVA==' },
      '403 certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: user not permitted to sign requests with signerName "kubernetes.io/kube-apiserver-client"',
    ],
    [
      'a Failed condition, without sign',
      'jane',
      { conditions: [{ type: 'Failed', status: 'True' }] },
      '403 certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: user not permitted to sign requests with signerName "kubernetes.io/kube-apiserver-client"',
    ],
    ['nothing changed', 'jane', {}, 'ok'],
  ])('%s (%s)', async (_what, user, status, want) => {
    expect(await outcome(() => signing.validate!(attrs('UPDATE', who(user), csr(APISERVER_CLIENT, status), 'status', csr(APISERVER_CLIENT))))).toBe(want);
  });
});

describe('CertificateSubjectRestriction', () => {
  let masters: string;
  let devs: string;
  beforeAll(async () => {
    const keys = await generateKeyPair('ECDSA-P256');
    const b64 = async (organizations: string[]) => Buffer.from(await createCsr({ commonName: 'mallory', organizations }, keys)).toString('base64');
    masters = await b64(['dev', 'system:masters']);
    devs = await b64(['dev']);
  });

  it.each([
    [
      'system:masters for the kube-apiserver-client signer',
      () => csr(APISERVER_CLIENT, {}, masters),
      '403 certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    ],
    ['other groups for that signer', () => csr(APISERVER_CLIENT, {}, devs), 'ok'],
    ['system:masters for another signer', () => csr('example.com/client', {}, masters), 'ok'],
  ])('%s', async (_what, obj, want) => {
    expect(await outcome(() => certificateSubjectRestriction.validate!(attrs('CREATE', who('mallory'), obj())))).toBe(want);
  });
});
