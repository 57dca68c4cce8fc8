// events.k8s.io/v1 with the real kubectl 1.32: an event written through the
// core API is listed by `kubectl get events.events.k8s.io` (the Table the
// apiserver prints, as for core events) and by `kubectl events`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';
import { event, runningPod } from './fixtures.js';

const run = requireTool('kubectl');

describe.skipIf(!run)('kubectl 1.32: events.k8s.io/v1', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
    await c.seed(runningPod('nginx'));
    const pod = (await c.get('pods', 'default', 'nginx'))!;
    await c.seed(
      event('nginx.1', pod, { reason: 'Scheduled', message: 'Successfully assigned default/nginx to node-1', component: 'default-scheduler', lastMsAgo: 30 * 60_000 }),
      event('nginx.2', pod, { reason: 'BackOff', message: 'Back-off restarting failed container nginx in pod nginx_default', type: 'Warning', component: 'kubelet', lastMsAgo: 10 * 60_000, count: 3 }),
    );
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('get events.events.k8s.io prints the columns of get events, from the same objects', async () => {
    const r = await c.kubectl(['get', 'events.events.k8s.io', '-v=6']);
    expect(r.stderr).toContain('GET https://127.0.0.1:');
    expect(r.stderr).toMatch(/\/apis\/events\.k8s\.io\/v1\/namespaces\/default\/events\?limit=500 200 OK/);
    expect(squash(r.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '30m Normal Scheduled pod/nginx Successfully assigned default/nginx to node-1',
      '10m Warning BackOff pod/nginx Back-off restarting failed container nginx in pod nginx_default',
    ]);
    expect(squash((await c.kubectl(['get', 'events'])).stdout)).toEqual(squash(r.stdout));
  });

  it('get ev.events.k8s.io -o wide adds source, first seen, count and name', async () => {
    expect(squash((await c.kubectl(['get', 'ev.events.k8s.io', '-o', 'wide'])).stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME',
      '30m Normal Scheduled pod/nginx default-scheduler, node-1 Successfully assigned default/nginx to node-1 30m 1 nginx.1',
      '10m Warning BackOff pod/nginx kubelet, node-1 Back-off restarting failed container nginx in pod nginx_default 11m 3 nginx.2',
    ]);
  });

  it('get -o yaml shows the events.k8s.io/v1 shape of a core event', async () => {
    const y = (await c.kubectl(['get', 'events.events.k8s.io', 'nginx.2', '-o', 'yaml'])).stdout;
    expect(y).toMatch(/^apiVersion: events\.k8s\.io\/v1$/m);
    expect(y).toMatch(/^deprecatedCount: 3$/m);
    expect(y).toMatch(/^eventTime: null$/m);
    expect(y).toMatch(/^note: Back-off restarting failed container nginx in pod nginx_default$/m);
    expect(y).toMatch(/^regarding:\n {2}apiVersion: v1\n {2}kind: Pod\n {2}name: nginx$/m);
    expect(y).not.toMatch(/^message:/m);
  });

  it('kubectl events (1.32 lists core/v1 events) prints the same events with its own columns', async () => {
    const r = await c.kubectl(['events', '-v=6']);
    expect(r.stderr).toMatch(/\/api\/v1\/namespaces\/default\/events\?limit=500 200 OK/);
    expect(squash(r.stdout)).toEqual([
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '30m Normal Scheduled Pod/nginx Successfully assigned default/nginx to node-1',
      '10m (x3 over 11m) Warning BackOff Pod/nginx Back-off restarting failed container nginx in pod nginx_default',
    ]);
  });

  it('explain events --api-version=events.k8s.io/v1 reads its OpenAPI schema', async () => {
    const r = await c.kubectl(['explain', 'events.regarding', '--api-version=events.k8s.io/v1']);
    expect(r.stdout).toMatch(/^GROUP: {6}events\.k8s\.io$/m);
    expect(r.stdout).toMatch(/^KIND: {7}Event$/m);
    expect(r.stdout).toMatch(/^FIELD: regarding <ObjectReference>$/m);
  });
});
