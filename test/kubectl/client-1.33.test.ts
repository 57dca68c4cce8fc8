// The core verbs with the newest kubectl the machine's SDK ships (1.33),
// run directly (not through the dispatcher), against kubelab's apiserver.

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { KUBECTL_133, squash, startCluster, type Cluster } from './harness.js';
import { event, node, runningPod } from './fixtures.js';

const run = requireTool('kubectl') && existsSync(KUBECTL_133);

type Obj = Record<string, any>;

describe.skipIf(!run)('kubectl 1.33: core verbs', { timeout: 60_000 }, () => {
  let c: Cluster;
  const k = (args: string[], stdin?: string) => c.kubectl(args, stdin === undefined ? { bin: KUBECTL_133 } : { bin: KUBECTL_133, stdin });

  beforeAll(async () => {
    c = await startCluster();
    await c.seed(node('node-1'), runningPod('nginx'));
    const pod = (await c.get('pods', 'default', 'nginx'))!;
    await c.seed(event('nginx.1', pod, { reason: 'Started', message: 'Started container nginx', component: 'kubelet', lastMsAgo: 30 * 60_000 }));
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('version', async () => {
    const r = await k(['version']);
    expect(r.stdout).toMatch(/^Client Version: v1\.33\.\d+/);
    expect(r.stdout).toContain('Server Version: v1.32.4-kubelab');
  });

  it('get pods -o wide, get nodes', async () => {
    expect(squash((await k(['get', 'pods', '-o', 'wide'])).stdout)[1]).toMatch(/^nginx 1\/1 Running 0 \d+s 10\.244\.0\.5 node-1 <none> <none>$/);
    expect(squash((await k(['get', 'nodes'])).stdout)).toEqual(['NAME STATUS ROLES AGE VERSION', expect.stringMatching(/^node-1 Ready control-plane \d+s v1\.32\.4-kubelab$/)]);
  });

  it('create deployment, expose, scale, get -A', async () => {
    expect((await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).stdout).toBe('deployment.apps/web created\n');
    expect((await k(['expose', 'deployment', 'web', '--port=80'])).stdout).toBe('service/web exposed\n');
    expect((await k(['scale', 'deployment', 'web', '--replicas=5'])).stdout).toBe('deployment.apps/web scaled\n');
    expect(((await c.get('deployments', 'default', 'web', 'apps')) as Obj).spec.replicas).toBe(5);
    const all = squash((await k(['get', 'svc', '-A'])).stdout);
    expect(all.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(['NAMESPACE NAME TYPE', 'default kubernetes ClusterIP', 'default web ClusterIP']);
  });

  it('apply: created, unchanged, configured; unknown fields rejected', async () => {
    const pod = (image: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: applied}\nspec:\n  containers: [{name: web, image: ${image}}]\n`;
    expect((await k(['apply', '-f', '-'], pod('nginx:1.25'))).stdout).toBe('pod/applied created\n');
    expect((await k(['apply', '-f', '-'], pod('nginx:1.25'))).stdout).toBe('pod/applied unchanged\n');
    expect((await k(['apply', '-f', '-'], pod('nginx:1.26'))).stdout).toBe('pod/applied configured\n');
    expect(((await c.get('pods', 'default', 'applied')) as Obj).spec.containers[0].image).toBe('nginx:1.26');
    const bad = await k(['apply', '-f', '-'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec:\n  containers: [{name: web, image: nginx}]\n  restartPolicyy: Never\n');
    expect(bad.stderr.trim()).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.restartPolicyy"',
    );
  });

  it('describe pod with events; delete --force', async () => {
    const d = await k(['describe', 'pod', 'nginx']);
    expect(d.stdout).toMatch(/Status:\s+Running\n/);
    expect(squash(d.stdout).at(-1)).toBe('Normal Started 30m kubelet Started container nginx');
    expect((await k(['delete', 'pod', 'nginx', '--grace-period=0', '--force'])).stdout).toBe('pod "nginx" force deleted\n');
    expect(await c.get('pods', 'default', 'nginx')).toBeUndefined();
  });
});
