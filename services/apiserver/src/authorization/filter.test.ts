// The request filter in front of a handler: a 403 as upstream writes it
// (metav1.Status JSON), the user handed on to the handler, impersonation.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFrom } from '../endpoints/request-user.js';
import type { UserInfo } from '@kubelab/api';
import { authorizeRequest, INSECURE_SUPERUSER } from './filter.js';
import type { Authorizer } from './types.js';
import { superuserAuthorizer, unionAuthorizer } from './union.js';

/** jane may list pods in default and get /healthz; impersonation only for the superuser. */
const authorizer: Authorizer = unionAuthorizer([
  superuserAuthorizer,
  {
    authorize: (a) =>
      a.user.name === 'jane' && ((a.resourceRequest && a.resource === 'pods' && a.namespace === 'default' && a.verb === 'list') || (!a.resourceRequest && a.path === '/healthz'))
        ? { decision: 'Allow', reason: '' }
        : { decision: 'NoOpinion', reason: a.user.name === 'jane' ? 'RBAC: no rule' : '' },
  },
]);

let server: Server;
let base: string;
beforeAll(async () => {
  // The user is named by a test header here; the authentication chain will set it for real.
  const userOf = (req: IncomingMessage): UserInfo | undefined => (req.headers['x-test-user'] ? { name: String(req.headers['x-test-user']), groups: ['system:authenticated'] } : undefined);
  server = createServer((req, res) => {
    if (!authorizeRequest({ authorizer, userOf }, req, res)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(userFrom(req)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { headers });
  return { status: res.status, type: res.headers.get('content-type'), json: (await res.json()) as unknown };
}

describe('authorizeRequest', () => {
  it('answers 403 with upstream Status JSON for a resource', async () => {
    expect(await get('/api/v1/namespaces/kube-system/pods/web', { 'x-test-user': 'jane' })).toEqual({
      status: 403,
      type: 'application/json',
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods "web" is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "kube-system": RBAC: no rule',
        reason: 'Forbidden',
        details: { name: 'web', kind: 'pods' },
        code: 403,
      },
    });
  });

  it('names the group and leaves out an empty name', async () => {
    const r = await get('/apis/apps/v1/deployments', { 'x-test-user': 'jane' });
    expect(r.json).toMatchObject({
      message: 'deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" at the cluster scope: RBAC: no rule',
      details: { group: 'apps', kind: 'deployments' },
    });
  });

  it('answers a path with `forbidden: ...` and empty details', async () => {
    expect((await get('/metrics', { 'x-test-user': 'jane' })).json).toMatchObject({
      message: 'forbidden: User "jane" cannot get path "/metrics": RBAC: no rule',
      details: {},
      code: 403,
    });
    expect((await get('/healthz', { 'x-test-user': 'jane' })).status).toBe(200);
  });

  it('hands the user on; without authentication it is the insecure superuser', async () => {
    expect((await get('/api/v1/namespaces/default/pods', { 'x-test-user': 'jane' })).json).toEqual({ name: 'jane', groups: ['system:authenticated'] });
    expect((await get('/api/v1/secrets')).json).toEqual(INSECURE_SUPERUSER);
  });

  it('authorizes as the impersonated user', async () => {
    expect((await get('/api/v1/namespaces/default/pods', { 'impersonate-user': 'jane', 'impersonate-group': 'dev' })).json).toEqual({ name: 'jane', groups: ['dev', 'system:authenticated'] });
    expect((await get('/api/v1/secrets', { 'impersonate-user': 'jane' })).json).toMatchObject({
      code: 403,
      message: 'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" at the cluster scope: RBAC: no rule',
    });
    expect((await get('/api/v1/secrets', { 'x-test-user': 'jane', 'impersonate-user': 'admin' })).json).toMatchObject({
      code: 403,
      message: 'users "admin" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope: RBAC: no rule',
    });
    expect((await get('/api/v1/secrets', { 'impersonate-group': 'dev' })).json).toMatchObject({ code: 400, reason: 'BadRequest' });
  });
});
