import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { authenticateRequest } from './authenticate.js';
import type { AuthenticatorOptions, TokenAuthenticator, UserInfo } from './types.js';

let apiserverCert: X509Certificate;
let noCnCert: X509Certificate;

beforeAll(async () => {
  const pki = await TestPki.create();
  apiserverCert = new X509Certificate((await pki.client({ commonName: 'kube-apiserver-kubelet-client', organizations: ['kubeadm:cluster-admins'] })).cert);
  noCnCert = new X509Certificate((await pki.client({ commonName: '' })).cert);
});

/** A request as the TLS server hands it over: the peer certificate and whether it verified. */
function request(o: { cert?: X509Certificate; verified?: boolean; authorization?: string } = {}): Pick<IncomingMessage, 'headers' | 'socket'> {
  const socket = { getPeerX509Certificate: () => o.cert, authorized: o.verified ?? false, authorizationError: o.verified ? null : new Error('unable to verify the first certificate') };
  return { headers: o.authorization ? { authorization: o.authorization } : {}, socket: socket as unknown as IncomingMessage['socket'] };
}

const tokens: TokenAuthenticator = {
  authenticateToken: (t) => {
    if (t === 'good')
      return Promise.resolve({ name: 'system:serviceaccount:default:app', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] } satisfies UserInfo);
    if (t === 'broken') return Promise.reject(new Error('the server could not find the requested resource'));
    return Promise.resolve(undefined);
  },
};

const kubeadm: AuthenticatorOptions = { x509: true, token: tokens, anonymous: false };

describe('authenticateRequest (the delegating authenticator)', () => {
  it.each([
    [
      'a verified client certificate: CN the user, O its groups',
      kubeadm,
      { cert: () => apiserverCert, verified: true },
      { user: { name: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins', 'system:authenticated'] } },
    ],
    ['a certificate from another CA: an error, never anonymous', { ...kubeadm, anonymous: true }, { cert: () => apiserverCert, verified: false }, { error: 'verifying certificate' }],
    ['a certificate without a CN', kubeadm, { cert: () => noCnCert, verified: true }, { error: 'common name of client cert is empty' }],
    ['a certificate without --client-ca-file: not looked at', { ...kubeadm, x509: false }, { cert: () => apiserverCert, verified: true }, { error: 'no credentials' }],
    ['a token the apiserver vouches for', kubeadm, { authorization: 'Bearer good' }, { user: { name: 'system:serviceaccount:default:app' } }],
    ['a token the apiserver does not know', { ...kubeadm, anonymous: true }, { authorization: 'Bearer forged' }, { error: 'invalid bearer token' }],
    ['a token review that failed', kubeadm, { authorization: 'Bearer broken' }, { error: 'the server could not find the requested resource' }],
    [
      'a token without --authentication-token-webhook: anonymous when allowed',
      { x509: true, anonymous: true },
      { authorization: 'Bearer good' },
      { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
    ],
    ['nothing, --anonymous-auth=false', kubeadm, {}, { error: 'no credentials' }],
    ['nothing, --anonymous-auth=true', { ...kubeadm, anonymous: true }, {}, { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } }],
  ] as const)('%s', async (_name, opts, r, want) => {
    const got = await authenticateRequest(request({ ...('cert' in r ? { cert: r.cert(), verified: r.verified } : {}), ...('authorization' in r ? { authorization: r.authorization } : {}) }), opts);
    if ('error' in want) expect((got as { error: string }).error).toContain(want.error);
    else expect(got).toMatchObject(want);
  });

  it('a verified certificate wins over a token (the union tries x509 first)', async () => {
    const got = await authenticateRequest(request({ cert: apiserverCert, verified: true, authorization: 'Bearer forged' }), kubeadm);
    expect(got).toMatchObject({ user: { name: 'kube-apiserver-kubelet-client' } });
  });

  it("reads a kept-alive connection's verified certificate once, and renegotiation is off for it", async () => {
    let reads = 0;
    let renegotiation = true;
    const socket = {
      getPeerX509Certificate: () => (reads++, apiserverCert),
      authorized: true,
      disableRenegotiation: () => void (renegotiation = false),
    };
    const req = { headers: {}, socket: socket as unknown as IncomingMessage['socket'] };
    for (let i = 0; i < 3; i++) expect(await authenticateRequest(req, kubeadm)).toMatchObject({ user: { name: 'kube-apiserver-kubelet-client' } });
    expect(reads).toBe(1);
    expect(renegotiation).toBe(false);
  });

  it('does not remember a certificate the handshake could not verify', async () => {
    let reads = 0;
    const socket = { getPeerX509Certificate: () => (reads++, apiserverCert), authorized: false, authorizationError: new Error('unable to verify the first certificate') };
    const req = { headers: {}, socket: socket as unknown as IncomingMessage['socket'] };
    for (let i = 0; i < 2; i++) expect(await authenticateRequest(req, kubeadm)).toMatchObject({ error: expect.stringContaining('verifying certificate') });
    expect(reads).toBe(2);
  });
});
