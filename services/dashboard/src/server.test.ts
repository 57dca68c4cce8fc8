import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Live } from './live.js';
import { DASHBOARD_FAULTS, parseControlAction, startDashboardServer, type RunningDashboard } from './server.js';

describe('parseControlAction', () => {
  it.each([
    ['stop', { node: 'node-1', unit: 'kubelet' }, { node: 'node-1', req: { action: 'stop', unit: 'kubelet' } }],
    ['start', { node: 'node-1', unit: 'kube-proxy' }, { node: 'node-1', req: { action: 'start', unit: 'kube-proxy' } }],
    ['fault', { node: 'node-1', fault: 'disk-pressure' }, { node: 'node-1', req: { action: 'fault', fault: 'disk-pressure', clear: false } }],
    ['fault', { node: 'node-1', fault: 'disk-pressure', clear: true }, { node: 'node-1', req: { action: 'fault', fault: 'disk-pressure', clear: true } }],
  ] as const)('%s %j', (kind, body, want) => expect(parseControlAction(kind, body)).toEqual(want));

  it.each([
    ['stop', { unit: 'kubelet' }, 'node: a lowercase RFC 1123 name is required, got undefined'],
    ['stop', { node: 'Node 1', unit: 'kubelet' }, 'node: a lowercase RFC 1123 name is required, got "Node 1"'],
    [
      'stop',
      { node: 'node-1', unit: 'sshd' },
      'unit: one of kubelet, containerd, kube-proxy, node-problem-detector, kube-network-policies, kube-scheduler, kube-controller-manager is required, got "sshd"',
    ],
    ['fault', { node: 'node-1', fault: 'no-such-fault' }, 'fault: one of kernel-deadlock,'],
    ['fault', { node: 'node-1', fault: 'etcd-lost' }, 'fault: one of'],
  ] as const)('refuses %s %j', (kind, body, message) => expect(() => parseControlAction(kind, body)).toThrow(message));

  it('offers every fault but etcd-lost (it freezes NATS, the path of the request and of its clearing)', () => {
    expect(DASHBOARD_FAULTS.map((f) => f.name)).toContain('kernel-deadlock');
    expect(DASHBOARD_FAULTS.map((f) => f.name)).not.toContain('etcd-lost');
  });
});

describe('POST /api/actions/{stop,start,fault}', () => {
  let dash: RunningDashboard;
  const live = new Live({ bufferSize: 100, nodeMonitorGracePeriodMs: 50_000 });
  beforeAll(async () => {
    dash = await startDashboardServer({ live, webDir: mkdtempSync(join(tmpdir(), 'dash-web-')), bindAddress: '127.0.0.1', port: 0 });
  });
  afterAll(() => dash.close());
  const post = async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(new URL(path, dash.url), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    return { code: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it.each([
    ['a bad unit', 'api/actions/stop', { node: 'node-1', unit: 'sshd' }, 400, 'BadRequest'],
    ['a body that is no JSON object', 'api/actions/start', '[1]', 400, 'BadRequest'],
    ['malformed JSON', 'api/actions/fault', '{', 400, 'BadRequest'],
    ['no NATS connection', 'api/actions/stop', { node: 'node-1', unit: 'kubelet' }, 503, 'ServiceUnavailable'],
  ])('answers %s with a metav1.Status', async (_n, path, body, code, reason) => {
    const r = await post(path, body);
    expect(r.code).toBe(code);
    expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
  });

  it.each([
    ['a text/plain body (what another site may send without asking)', { 'content-type': 'text/plain' }, 415, 'UnsupportedMediaType'],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'UnsupportedMediaType'],
    ['another origin', { 'content-type': 'application/json', origin: 'http://evil.example' }, 403, 'Forbidden'],
    ['an opaque origin', { 'content-type': 'application/json', origin: 'null' }, 403, 'Forbidden'],
  ])('refuses %s', async (_n, headers, code, reason) => {
    for (const path of ['api/actions/stop', 'api/actions/scale']) {
      const res = await fetch(new URL(path, dash.url), { method: 'POST', headers, body: JSON.stringify({ node: 'node-1', unit: 'kubelet' }) });
      expect(res.status).toBe(code);
      expect(await res.json()).toMatchObject({ kind: 'Status', code, reason });
    }
  });

  it('accepts its own origin', async () => {
    const res = await fetch(new URL('api/actions/stop', dash.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', origin: new URL(dash.url).origin },
      body: '{"node":"node-1","unit":"kubelet"}',
    });
    expect(await res.json()).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
  });

  it('refuses GET', async () => {
    const r = await post('api/actions/stop', undefined, 'GET');
    expect(r.body).toMatchObject({ kind: 'Status', code: 405, reason: 'MethodNotAllowed', message: 'GET is not allowed on /api/actions/stop' });
  });

  it('lists the units and faults it offers', async () => {
    const r = await post('api/actions', undefined, 'GET');
    expect(r.body).toMatchObject({
      control: false,
      units: ['kubelet', 'containerd', 'kube-proxy', 'node-problem-detector', 'kube-network-policies'],
      components: ['kube-scheduler', 'kube-controller-manager'],
    });
    expect((r.body.faults as { name: string }[]).map((f) => f.name)).toContain('disk-pressure');
  });
});
