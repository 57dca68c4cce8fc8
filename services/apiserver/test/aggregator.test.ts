// The aggregation layer against a real apiserver: an APIService handing
// example.com/v1 to a Service whose endpoint is a stub extension apiserver
// on loopback. The availability controller's conditions, discovery merged
// into /apis, and requests proxied with the front-proxy certificate and who
// asked in X-Remote-User/X-Remote-Group (never the caller's credentials).

import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { TestPki } from '@kubelab/pki/testing';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

type Json = Record<string, any>;
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';

describe.runIf(requireTool('nats-server'))('the aggregation layer', () => {
  let c: TestCluster;
  let backend: Server;
  let port: number;
  beforeAll(async () => {
    const frontProxy = await TestPki.create('front-proxy-ca');
    const proxyClient = await frontProxy.client({ commonName: 'front-proxy-client' });
    const serving = await frontProxy.serving({ commonName: 'widgets' });
    backend = createServer({ cert: serving.cert, key: serving.key, ca: frontProxy.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerX509Certificate() as X509Certificate | undefined;
      const body =
        req.url === '/apis/example.com/v1'
          ? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'example.com/v1', resources: [{ name: 'widgets', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'list'] }] }
          : {
              kind: 'WidgetList',
              apiVersion: 'example.com/v1',
              path: req.url,
              user: req.headersDistinct['x-remote-user'],
              groups: req.headersDistinct['x-remote-group'],
              authorization: req.headers.authorization ?? null,
              proxy: peer?.subject,
            };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', () => r()));
    port = (backend.address() as AddressInfo).port;
    c = await startTestCluster({
      rest: true,
      proxyClient: { certPem: proxyClient.cert, keyPem: proxyClient.key },
      requestHeader: {
        clientCaPem: frontProxy.caPem,
        allowedNames: ['front-proxy-client'],
        usernameHeaders: ['X-Remote-User'],
        groupHeaders: ['X-Remote-Group'],
        extraHeadersPrefix: ['X-Remote-Extra-'],
      },
    });
  });
  afterAll(async () => {
    await c?.cleanup();
    backend?.close();
  });
  const rest = async (path: string, opts: { method?: string; body?: unknown } = {}) => {
    const r = await c.rest(path, {
      method: opts.method ?? 'GET',
      headers: opts.body !== undefined ? { 'Content-Type': 'application/json' } : {},
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    let body: Json | string = r.body;
    try {
      body = JSON.parse(r.body) as Json;
    } catch {
      // text
    }
    return { status: r.status, body: body as Json };
  };
  const available = async (name: string) => ((await rest(`${APISERVICES}/${name}`)).body.status?.conditions ?? []).find((x: Json) => x.type === 'Available') as Json | undefined;

  it('publishes the requestheader settings for extension apiservers', async () => {
    const cm = (await rest('/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication')).body;
    expect(cm.data['requestheader-allowed-names']).toBe('["front-proxy-client"]');
    expect(cm.data['requestheader-username-headers']).toBe('["X-Remote-User"]');
    expect(cm.data['client-ca-file']).toContain('BEGIN CERTIFICATE');
  });

  it('says ServiceNotFound, then Available once the Service has an endpoint that answers discovery', async () => {
    const apiService = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.example.com' },
      spec: { group: 'example.com', version: 'v1', service: { namespace: 'default', name: 'widgets' }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100 },
    };
    expect((await rest(APISERVICES, { method: 'POST', body: apiService })).status).toBe(201);
    expect(await waitFor('ServiceNotFound', async () => ((await available('v1.example.com'))?.reason === 'ServiceNotFound' ? available('v1.example.com') : undefined))).toMatchObject({
      status: 'False',
      message: 'service/widgets in "default" is not present',
    });
    await rest('/api/v1/namespaces/default/services', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'widgets' }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } },
    });
    expect(await waitFor('EndpointsNotFound', async () => ((await available('v1.example.com'))?.reason === 'EndpointsNotFound' ? true : undefined))).toBe(true);
    await rest('/api/v1/namespaces/default/endpoints', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'widgets' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] },
    });
    expect(await waitFor('Available', async () => ((await available('v1.example.com'))?.status === 'True' ? available('v1.example.com') : undefined))).toMatchObject({
      reason: 'Passed',
      message: 'all checks passed',
    });
    const groups = (await rest('/apis')).body.groups.map((g: Json) => g.name);
    expect(groups).toContain('example.com');
    expect((await rest('/apis/example.com')).body).toMatchObject({ kind: 'APIGroup', name: 'example.com', preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } });
  });

  it("proxies requests with the front-proxy certificate and the caller's identity in X-Remote-*", async () => {
    const r = await rest('/apis/example.com/v1/namespaces/default/widgets?limit=5');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'WidgetList',
      path: '/apis/example.com/v1/namespaces/default/widgets?limit=5',
      user: ['kubelab-test-admin'],
      authorization: null,
      proxy: 'CN=front-proxy-client',
    });
    expect(r.body.groups).toEqual(expect.arrayContaining(['system:masters', 'system:authenticated']));
  });

  it('says MissingEndpoints without addresses, and answers 503 service unavailable', async () => {
    await rest('/api/v1/namespaces/default/endpoints/widgets', { method: 'PUT', body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'widgets', namespace: 'default' }, subsets: [] } });
    expect(await waitFor('MissingEndpoints', async () => ((await available('v1.example.com'))?.reason === 'MissingEndpoints' ? available('v1.example.com') : undefined))).toMatchObject({
      status: 'False',
      message: 'endpoints for service/widgets in "default" have no addresses with port name "https"',
    });
    const r = await rest('/apis/example.com/v1/namespaces/default/widgets');
    expect(r).toEqual({ status: 503, body: 'service unavailable\n' });
    expect((await rest('/apis')).body.groups.map((g: Json) => g.name)).not.toContain('example.com');
  });
});
