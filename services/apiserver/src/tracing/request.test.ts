// REST request spans: named as upstream names them, continuing a traceparent
// header, errors for 5xx. The tracer uses the sync context manager, as the
// apiserver process does (vitest runs each file in its own process).

import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Tracing } from '@kubelab/tracing';
import { setupTestTracing, summarizeSpan } from '@kubelab/tracing/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { nameRestRequestSpan, restSpanName, traceRestHandler } from './request.js';

const SYNC = { contextPropagation: 'sync' } as const;

describe('REST request spans', () => {
  it.each([
    ['GET', { kind: 'version' }, 'GET'],
    ['GET', { kind: 'resource', group: '', version: 'v1', resource: 'pods' }, 'GET /api/v1/pods'],
    ['GET', { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: 'web-1' }, 'GET /api/v1/namespaces/{:namespace}/pods/{:name}'],
    ['POST', { kind: 'resource', group: 'apps', version: 'v1', namespace: 'prod', resource: 'deployments' }, 'POST /apis/apps/v1/namespaces/{:namespace}/deployments'],
    ['PUT', { kind: 'resource', group: '', version: 'v1', resource: 'nodes', name: 'node-1', subresource: 'status' }, 'PUT /api/v1/nodes/{:name}/status'],
  ])('%s %j → %s', (method, info, want) => {
    expect(restSpanName(method, info)).toBe(want);
  });

  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function serve(tracing: Tracing, status: number): Promise<number> {
    const handler = traceRestHandler(tracing, async (req, res) => {
      nameRestRequestSpan(req, { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: 'web-1' });
      await tracing.withSpan('KV get', async () => undefined);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    return (server.address() as AddressInfo).port;
  }

  function get(port: number, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/namespaces/default/pods/web-1', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('continues a traceparent header, is named after parsing, and is the parent of the work inside', async () => {
    const t = setupTestTracing('apiserver', SYNC);
    const port = await serve(t.tracing, 200);
    expect(await get(port, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })).toBe(200);
    const spans = t.spans().map(summarizeSpan);
    const srv = spans.find((s) => s.kind === 'SERVER')!;
    expect(spans).toEqual([
      { name: 'KV get', kind: 'INTERNAL', service: 'apiserver', traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: expect.any(String), parentSpanId: srv.spanId, status: 'UNSET' },
      {
        name: 'GET /api/v1/namespaces/{:namespace}/pods/{:name}',
        kind: 'SERVER',
        service: 'apiserver',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        spanId: srv.spanId,
        parentSpanId: '00f067aa0ba902b7',
        status: 'UNSET',
      },
    ]);
    expect(t.spans()[1]!.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.target': '/api/v1/namespaces/default/pods/web-1', 'http.response.status_code': 200 });
  });

  it('marks 5xx answers as errors, 4xx not', async () => {
    const t = setupTestTracing('apiserver', SYNC);
    const port = await serve(t.tracing, 503);
    expect(await get(port)).toBe(503);
    const s = t
      .spans()
      .map(summarizeSpan)
      .find((x) => x.kind === 'SERVER')!;
    expect([s.status, s.parentSpanId]).toEqual(['ERROR', undefined]);
  });

  it('off: the handler is returned untouched', () => {
    const h = async () => {};
    const spy = setupTestTracing('apiserver', SYNC);
    expect(traceRestHandler({ ...spy.tracing, enabled: false }, h)).toBe(h);
    expect(traceRestHandler(undefined, h)).toBe(h);
  });
});
