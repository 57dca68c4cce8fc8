import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { filterSecurePortRequest } from './filter.js';
import { delegatingAuth } from './delegating.js';
import type { Authorizer, SecurePortAuth, TokenAuthenticator } from './types.js';

const tokens: TokenAuthenticator = {
  authenticateToken: (t) => Promise.resolve(t === 'prometheus' ? { name: 'system:serviceaccount:monitoring:prometheus', groups: ['system:serviceaccounts'] } : undefined),
};
/** RBAC's answer in miniature: the monitoring service account may get /metrics. */
const authorizer: Authorizer = delegatingAuth({
  subjectAccessReviews: {
    create: (r) => {
      if (r.spec.user === 'broken') return Promise.reject(new Error('the server is currently unable to handle the request'));
      return Promise.resolve({
        ...r,
        status: { allowed: r.spec.user === 'system:serviceaccount:monitoring:prometheus' && r.spec.nonResourceAttributes?.path === '/metrics' && r.spec.nonResourceAttributes.verb === 'get' },
      });
    },
  },
}).authorizer;
const auth: SecurePortAuth = { authentication: { x509: false, token: tokens, anonymous: true }, authorizer };

const request = (method: string, url: string, token?: string) =>
  ({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, socket: {} }) as unknown as Pick<IncomingMessage, 'headers' | 'socket' | 'method' | 'url'>;

describe('filterSecurePortRequest (upstream WithAuthentication + WithAuthorization on a delegating server)', () => {
  it.each([
    ['anonymous /healthz', request('GET', '/healthz'), 'system:anonymous'],
    ['anonymous /readyz?verbose', request('GET', '/readyz?verbose'), 'system:anonymous'],
    ['a token granted /metrics', request('GET', '/metrics', 'prometheus'), 'system:serviceaccount:monitoring:prometheus'],
    ['a token on an open path', request('GET', '/livez', 'prometheus'), 'system:serviceaccount:monitoring:prometheus'],
  ])('%s passes', async (_n, req, user) => {
    expect(await filterSecurePortRequest(auth, req)).toMatchObject({ ok: true, user: { name: user } });
  });

  it('an unknown token is 401 Unauthorized as a Status, not anonymous', async () => {
    const r = await filterSecurePortRequest(auth, request('GET', '/healthz', 'forged'));
    expect(r).toMatchObject({ ok: false, code: 401, contentType: 'application/json', why: 'invalid bearer token' });
    expect(!r.ok && JSON.parse(r.body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it.each([
    ['anonymous /metrics', request('GET', '/metrics'), 'forbidden: User "system:anonymous" cannot get path "/metrics"'],
    ['anonymous one check by path', request('GET', '/livez/ping'), 'forbidden: User "system:anonymous" cannot get path "/livez/ping"'],
    ['a token, another verb', request('POST', '/metrics', 'prometheus'), 'forbidden: User "system:serviceaccount:monitoring:prometheus" cannot post path "/metrics"'],
  ])('%s is 403 in upstream words', async (_n, req, message) => {
    const r = await filterSecurePortRequest(auth, req);
    expect(r).toMatchObject({ ok: false, code: 403, contentType: 'application/json' });
    expect(!r.ok && JSON.parse(r.body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 });
  });

  it('a review that could not be made is 500 naming the request', async () => {
    const brokenAuth: SecurePortAuth = { ...auth, authentication: { x509: false, anonymous: true, token: { authenticateToken: () => Promise.resolve({ name: 'broken', groups: [] }) } } };
    expect(await filterSecurePortRequest(brokenAuth, request('GET', '/metrics?x=1', 'any'))).toEqual({
      ok: false,
      code: 500,
      contentType: 'text/plain; charset=utf-8',
      body: 'Internal Server Error: "/metrics?x=1": the server is currently unable to handle the request\n',
      why: 'the server is currently unable to handle the request',
    });
  });
});
