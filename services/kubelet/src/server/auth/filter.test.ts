import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { filterRequest, type KubeletAuthOptions } from './filter.js';
import type { Authorizer, TokenAuthenticator } from '@kubelab/component-base';

const tokens: TokenAuthenticator = {
  authenticateToken: (t) => Promise.resolve(t === 'admin' ? { name: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins'] } : t === 'jane' ? { name: 'jane', groups: [] } : undefined),
};
/** RBAC's answer in miniature: cluster admins may do anything on the node. */
const authorizer: Authorizer = {
  authorize: (a) => {
    if (a.user.name === 'broken') return Promise.reject(new Error('the server is currently unable to handle the request'));
    return Promise.resolve(a.user.groups.includes('kubeadm:cluster-admins') ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' });
  },
};
const opts: KubeletAuthOptions = { nodeName: 'node-1', authentication: { x509: true, token: tokens, anonymous: false }, authorizer };

const request = (method: string, url: string, token?: string) =>
  ({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, socket: {} }) as unknown as Pick<IncomingMessage, 'headers' | 'socket' | 'method' | 'url'>;

describe('filterRequest (upstream InstallAuthFilter)', () => {
  it('lets the cluster admin through with the attributes it was checked for', async () => {
    const r = await filterRequest(opts, request('POST', '/exec/default/web/app?command=ls&output=1', 'admin'));
    expect(r).toMatchObject({
      ok: true,
      user: { name: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins', 'system:authenticated'] },
      attributes: { verb: 'create', subresource: 'proxy', path: '/exec/default/web/app' },
    });
  });

  it.each([
    ['anonymous', request('GET', '/pods'), 401, 'Unauthorized'],
    ['an unknown token', request('GET', '/pods', 'forged'), 401, 'Unauthorized'],
    ['jane exec (SPDY POST)', request('POST', '/exec/default/web/app', 'jane'), 403, 'Forbidden (user=jane, verb=create, resource=nodes, subresource=proxy)'],
    ['jane logs', request('GET', '/containerLogs/default/web/app', 'jane'), 403, 'Forbidden (user=jane, verb=get, resource=nodes, subresource=proxy)'],
    ['jane metrics', request('GET', '/metrics', 'jane'), 403, 'Forbidden (user=jane, verb=get, resource=nodes, subresource=metrics)'],
  ])('%s → %i %s', async (_name, req, code, message) => {
    expect(await filterRequest(opts, req)).toMatchObject({ ok: false, code, message });
  });

  it('a review that could not be made is a 500 naming the attributes', async () => {
    const broken: Authorizer = { authorize: () => Promise.reject(new Error('connection refused')) };
    expect(await filterRequest({ ...opts, authorizer: broken }, request('GET', '/pods', 'jane'))).toEqual({
      ok: false,
      code: 500,
      message: 'Authorization error (user=jane, verb=get, resource=nodes, subresource=proxy)',
      why: 'connection refused',
    });
  });
});
