// The proxy subresources through the REST handler: a stub kubelet over
// mutual TLS for nodes/proxy, a stub pod server (reached through the pod
// dialer, as kubelab's loopback pod network) for pods/ and services/proxy.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APISERVER_KUBELET_CLIENT, certificateInfo } from '@kubelab/pki';
import { TestPki } from '@kubelab/pki/testing';
import type { KubeObject } from '@kubelab/api';
import { FakeRegistry } from '../testing/index.js';
import { createRestHandler } from './index.js';

const listen = async <S extends Server | HttpsServer>(s: S): Promise<number> => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};

let api: Server;
let base: string;
let kubelet: HttpsServer;
let backend: Server;
const seen: string[] = [];
let kubeletPort = 0;

beforeAll(async () => {
  const pki = await TestPki.create();
  const [client, serving] = await Promise.all([pki.client(APISERVER_KUBELET_CLIENT), (await TestPki.create('node-ca')).serving({ commonName: 'node-1' })]);
  kubelet = createHttpsServer({ cert: serving.cert, key: serving.key, ca: pki.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    seen.push(`kubelet ${certificateInfo((req.socket as TLSSocket).getPeerX509Certificate()!.toString()).commonName} ${req.method} ${req.url}`);
    res.end('ok');
  });
  kubeletPort = await listen(kubelet);
  backend = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push(`pod ${req.method} ${req.url} auth=${req.headers.authorization ?? '-'} body=${body}`);
      res.writeHead(200, { 'Content-Type': 'text/html', 'X-Served-By': 'nginx' });
      res.end('<h1>Welcome to nginx!</h1>');
    });
  });
  const backendPort = await listen(backend);
  const reg = new FakeRegistry();
  const labels = { app: 'web' };
  reg.seed(
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } } as KubeObject,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels },
      spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      status: { podIP: '10.244.1.5' },
    } as KubeObject,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending', namespace: 'default' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } as KubeObject,
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 80 }] } } as KubeObject,
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'empty', namespace: 'default' }, spec: { ports: [{ port: 80 }] } } as KubeObject,
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.244.1.5' }], ports: [{ name: 'http', port: 80 }] }],
    } as unknown as KubeObject,
  );
  const handler = createRestHandler({
    registry: reg,
    kubeletAddress: async () => ({ host: '127.0.0.1', port: kubeletPort }),
    kubeletClient: { certPem: client.cert, keyPem: client.key },
    // 10.244.1.5:80 is served by the stub; every other pod address has nothing listening.
    podDialer: async ({ ip, port }) => connect(ip === '10.244.1.5' && port === 80 ? backendPort : 1, '127.0.0.1'),
  });
  api = createServer((req, res) => void handler(req, res));
  base = `http://127.0.0.1:${await listen(api)}`;
});

afterAll(async () => {
  for (const s of [api, kubelet, backend]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  seen.length = 0;
  const res = await fetch(base + path, { method, redirect: 'manual', ...init });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('nodes/proxy', () => {
  it('reaches the kubelet as apiserver-kubelet-client with the path and query', async () => {
    const r = await call('GET', '/api/v1/nodes/node-1/proxy/metrics?x=1');
    expect(r.text).toBe('ok');
    expect(seen).toEqual([`kubelet ${APISERVER_KUBELET_CLIENT.commonName} GET /metrics?x=1`]);
    const post = await call('POST', `/api/v1/nodes/node-1:${kubeletPort}/proxy/pods`);
    expect(post.text).toBe('ok');
    expect(seen).toEqual([`kubelet ${APISERVER_KUBELET_CLIENT.commonName} POST /pods`]);
  });

  it('an unknown node is a 404; another port of a loopback node is refused', async () => {
    const r = await call('GET', '/api/v1/nodes/node-9/proxy/healthz');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).message).toBe('nodes "node-9" not found');
    const other = await call('GET', '/api/v1/nodes/node-1:9100/proxy/metrics');
    expect(other.status).toBe(400);
    expect(JSON.parse(other.text).message).toBe('address not allowed');
  });
});

describe('pods/proxy', () => {
  it("forwards method, path, body and the backend's answer; the caller's credentials stay behind", async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods/web:80/proxy/form?q=1', { body: 'a=b', headers: { authorization: 'Bearer secret' } });
    expect(r.status).toBe(200);
    expect(r.text).toBe('<h1>Welcome to nginx!</h1>');
    expect(r.headers.get('x-served-by')).toBe('nginx');
    expect(seen).toEqual(['pod POST /form?q=1 auth=- body=a=b']);
  });

  it('the first declared container port when none is named', async () => {
    expect((await call('GET', '/api/v1/namespaces/default/pods/web/proxy/')).text).toBe('<h1>Welcome to nginx!</h1>');
  });

  it('the root without its slash is redirected to it', async () => {
    const r = await call('GET', '/api/v1/namespaces/default/pods/web:80/proxy?a=1');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/v1/namespaces/default/pods/web:80/proxy/?a=1');
  });

  it('nothing listening: 503 "error trying to reach service"; no pod IP yet: 400 "address not allowed"', async () => {
    const r = await call('GET', '/api/v1/namespaces/default/pods/web:81/proxy/');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toMatchObject({ reason: 'ServiceUnavailable', message: 'error trying to reach service: dial tcp 10.244.1.5:81: connect: connection refused' });
    const pending = await call('GET', '/api/v1/namespaces/default/pods/pending:80/proxy/');
    expect(pending.status).toBe(400);
    expect(JSON.parse(pending.text).message).toBe('address not allowed');
  });
});

describe('services/proxy', () => {
  it('one ready endpoint of the Service', async () => {
    const r = await call('GET', '/api/v1/namespaces/default/services/web:80/proxy/');
    expect(r.text).toBe('<h1>Welcome to nginx!</h1>');
    expect((await call('GET', '/api/v1/namespaces/default/services/http:web:http/proxy/')).text).toBe('<h1>Welcome to nginx!</h1>');
  });

  it('no endpoints: 503 as upstream', async () => {
    const r = await call('GET', '/api/v1/namespaces/default/services/empty/proxy/');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text)).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', message: 'no endpoints available for service "empty"', code: 503 });
  });
});
