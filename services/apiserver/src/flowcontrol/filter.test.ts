import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { serveUpgrades } from '@kubelab/component-base';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes } from '../authorization/types.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';
import { FlowControl } from './flow-control.js';
import { admitRequest } from './filter.js';
import { NO_LENDING } from './testing.js';

const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'] };
const attrsOf = (url: string): AuthorizationAttributes => {
  const watch = url.includes('watch=true');
  const exec = url.endsWith('/exec');
  return {
    user: jane,
    verb: watch ? 'watch' : 'list',
    resourceRequest: true,
    path: url,
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: exec ? 'exec' : '',
    name: '',
  };
};
// Every level one seat of its own, nothing lent; a queued request waits 200 ms at most.
const flow = new FlowControl({ serverConcurrencyLimit: 1, waitLimitMs: 200, levels: NO_LENDING });
const uid = (kind: 'schema' | 'level', name: string) => (kind === 'schema' ? BOOTSTRAP_FLOW_SCHEMAS : BOOTSTRAP_PRIORITY_LEVELS).find((o) => o.metadata.name === name)!.metadata.uid;

let server: Server;
let port = 0;
beforeAll(async () => {
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const go = admitRequest(flow, attrsOf(req.url ?? '/'), res);
    void Promise.resolve(go).then((ok) => {
      if (ok) res.end('served\n');
    });
  };
  server = createServer(handle);
  // As the apiserver's port: a request asking for an upgrade is answered through a response bound to its socket.
  serveUpgrades(server, handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

const get = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });

describe('the REST side of API Priority and Fairness', () => {
  it('names the FlowSchema and priority level by UID on the response, and gives the seat back when it ends', async () => {
    const r = await get('/api/v1/namespaces/default/pods');
    expect([r.status, r.body, r.headers['x-kubernetes-pf-flowschema-uid'], r.headers['x-kubernetes-pf-prioritylevel-uid']]).toEqual([
      200,
      'served\n',
      uid('schema', 'global-default'),
      uid('level', 'global-default'),
    ]);
    expect((await get('/api/v1/namespaces/default/pods')).status).toBe(200);
  });

  it('gives the seat back when a request that asked for an upgrade is answered (its response never emits close)', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await get('/api/v1/namespaces/default/pods', { connection: 'Upgrade', upgrade: 'websocket' });
      expect([r.status, r.body]).toEqual([200, 'served\n']);
    }
    // One seat in the level: a seat kept by any of them would leave this one to time out with a 429.
    expect((await get('/api/v1/namespaces/default/pods')).status).toBe(200);
  });

  it("answers upstream's plain-text 429 with Retry-After when the request's wait for a seat runs out", async () => {
    const held = await flow.admit(attrsOf('/api/v1/namespaces/default/pods'));
    expect(held.ok).toBe(true);
    const r = await get('/api/v1/namespaces/default/pods');
    expect([r.status, r.body, r.headers['retry-after'], r.headers['content-type'], r.headers['x-kubernetes-pf-prioritylevel-uid']]).toEqual([
      429,
      'Too many requests, please try again later.\n',
      '1',
      'text/plain; charset=utf-8',
      uid('level', 'global-default'),
    ]);
    // Long-running requests take no seat: a watch and an exec go on although the level is full.
    expect((await get('/api/v1/namespaces/default/pods?watch=true')).status).toBe(200);
    expect((await get('/api/v1/namespaces/default/pods/web/exec')).status).toBe(200);
    if (held.ok) held.release();
    expect((await get('/api/v1/namespaces/default/pods')).status).toBe(200);
  });
});
