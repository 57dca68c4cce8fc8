// `kubectl get componentstatuses` (cs) against kubelab's apiserver: a healthy
// component (an HTTPS /healthz answering "ok"), one that refuses the
// connection, and the store; upstream's table, deprecation warning and
// texts, in the oldest and newest kubectl the machines have.

import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertKey } from '@kubelab/pki';
import { freePort, requireTool } from '@kubelab/testing';
import { sdkKubectl, squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

describe.skipIf(!run)('kubectl get componentstatuses', { timeout: 60_000 }, () => {
  let c: Cluster;
  let scheduler: Server;
  /** Where nothing listens: the controller-manager is down. */
  let refusedPort: number;

  beforeAll(async () => {
    const serving = await selfSignedCertKey('kube-scheduler');
    scheduler = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      res.writeHead(req.url === '/healthz' ? 200 : 404, { 'Content-Type': 'text/plain' });
      res.end(req.url === '/healthz' ? 'ok' : 'not found');
    });
    const schedulerPort = await freePort();
    await new Promise<void>((r) => scheduler.listen(schedulerPort, '127.0.0.1', r));
    refusedPort = await freePort();
    c = await startCluster({
      componentStatusUrls: { scheduler: `https://127.0.0.1:${schedulerPort}/healthz`, 'controller-manager': `https://127.0.0.1:${refusedPort}/healthz` },
    });
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
    scheduler?.close();
  });

  it.each([27, 33])('kubectl 1.%i get cs: each component probed, with the deprecation warning', async (minor) => {
    const r = await c.kubectl(['get', 'cs'], { bin: sdkKubectl(minor) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(squash(r.stdout)).toEqual([
      'NAME STATUS MESSAGE ERROR',
      'scheduler Healthy ok',
      `controller-manager Unhealthy Get "https://127.0.0.1:${refusedPort}/healthz": dial tcp 127.0.0.1:${refusedPort}: connect: connection refused`,
      'etcd-0 Healthy ok',
    ]);
  });

  it('get componentstatus <name> -o yaml: the Healthy condition; a name with no component is upstream plain error', async () => {
    const r = await c.kubectl(['get', 'componentstatus', 'scheduler', '-o', 'yaml']);
    expect(r.stdout).toBe('apiVersion: v1\nconditions:\n- message: ok\n  status: "True"\n  type: Healthy\nkind: ComponentStatus\nmetadata:\n  name: scheduler\n');
    const missing = await c.kubectl(['get', 'cs', 'kube-proxy']);
    expect(missing).toMatchObject({ code: 1, stderr: 'Warning: v1 ComponentStatus is deprecated in v1.19+\nError from server: Component not found: kube-proxy\n' });
  });

  it('read-only: nothing to create, delete or watch', async () => {
    const del = await c.kubectl(['delete', 'cs', 'scheduler']);
    expect(del.stderr).toContain('Error from server (MethodNotAllowed): the server does not allow this method on the requested resource');
    expect((await c.kubectl(['api-resources', '--no-headers'])).stdout.split('\n').map((l) => l.replace(/\s+/g, ' '))).toContain('componentstatuses cs v1 false ComponentStatus');
  });
});
