// kubectl 1.32 against ResourceQuotas: `kubectl create quota`, what `get
// quota` and `describe quota` print once the controller-manager's
// resourcequota-controller has counted, the ResourceQuota admission plugin's
// refusals as kubectl shows them, and usage given back when a pod goes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningControllerManager } from '@kubelab/controller-manager';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, squash, startCluster, startControllers, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const podYaml = (name: string, cpu: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers:\n  - name: ${name}\n    image: nginx\n    resources: {requests: {cpu: ${cpu}}}\n`;

describe.skipIf(!run)('kubectl 1.32: resource quotas', { timeout: 60_000 }, () => {
  let c: Cluster;
  let cm: RunningControllerManager;

  beforeAll(async () => {
    c = await startCluster();
    cm = await startControllers(c, ['resourcequota-controller']);
  }, 60_000);

  afterAll(async () => {
    await cm?.stop();
    await c?.stop();
  });

  /** `kubectl get quota`'s data row, once it reads `want` (the controller counts asynchronously). */
  const quotaRow = (want: RegExp) =>
    waitFor(
      `get quota matching ${want}`,
      async () => {
        const rows = squash((await c.kubectl(['get', 'quota'])).stdout);
        return rows.length === 2 && want.test(rows[1]!) ? rows : undefined;
      },
      POLL,
    );

  it('create quota, get quota counts, refusals as upstream words them, describe quota, usage given back', async () => {
    const created = await c.kubectl(['create', 'quota', 'q', '--hard=pods=2,requests.cpu=1']);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('resourcequota/q created\n');
    const counted = await quotaRow(/^q \S+ pods: 0\/2, requests\.cpu: 0\/1$/);
    expect(counted[0]).toBe('NAME AGE REQUEST LIMIT');

    for (const name of ['a', 'b']) expect((await c.kubectl(['create', '-f', '-'], { stdin: podYaml(name, '400m') })).stdout).toBe(`pod/${name} created\n`);
    // Admission recorded both at once, before any controller recount.
    expect(squash((await c.kubectl(['get', 'quota'])).stdout)[1]).toMatch(/^q \S+ pods: 2\/2, requests\.cpu: 800m\/1$/);

    const third = await c.kubectl(['create', '-f', '-'], { stdin: podYaml('c', '100m') });
    expect(third.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
    const plain = await c.kubectl(['run', 'plain', '--image=nginx']);
    expect(plain.stderr.trim()).toBe('Error from server (Forbidden): pods "plain" is forbidden: failed quota: q: must specify requests.cpu for: plain');

    expect(squash((await c.kubectl(['describe', 'quota', 'q'])).stdout)).toEqual(['Name: q', 'Namespace: default', 'Resource Used Hard', '-------- ---- ----', 'pods 2 2', 'requests.cpu 800m 1']);

    // Replenishment: the deleted pod's share comes back, and a pod fits again.
    await c.kubectl(['delete', 'pod', 'a', '--grace-period=0', '--force']);
    await quotaRow(/^q \S+ pods: 1\/2, requests\.cpu: 400m\/1$/);
    expect((await c.kubectl(['create', '-f', '-'], { stdin: podYaml('c', '100m') })).stdout).toBe('pod/c created\n');
    expect(squash((await c.kubectl(['get', 'quota', 'q', '-o', 'wide'])).stdout)[1]).toMatch(/^q \S+ pods: 2\/2, requests\.cpu: 500m\/1$/);
  });

  it('limits.* in the LIMIT column; a container without the limit is refused', async () => {
    await c.kubectl(['create', 'namespace', 'lim']);
    expect((await c.kubectl(['create', 'quota', 'mem', '-n', 'lim', '--hard=limits.memory=1Gi,count/configmaps=1'])).stdout).toBe('resourcequota/mem created\n');
    const rows = await waitFor(
      'the counted quota',
      async () => {
        const r = squash((await c.kubectl(['get', 'quota', '-n', 'lim'])).stdout);
        return r[1]?.includes('limits.memory: 0/1Gi') ? r : undefined;
      },
      POLL,
    );
    // kube-root-ca.crt is not published here (no controller for it): no config map yet.
    expect(rows[1]).toMatch(/^mem \S+ count\/configmaps: 0\/1 limits\.memory: 0\/1Gi$/);
    const refused = await c.kubectl(['run', 'x', '-n', 'lim', '--image=nginx']);
    expect(refused.stderr.trim()).toBe('Error from server (Forbidden): pods "x" is forbidden: failed quota: mem: must specify limits.memory for: x');
    expect((await c.kubectl(['create', 'configmap', 'one', '-n', 'lim'])).stdout).toBe('configmap/one created\n');
    const second = await c.kubectl(['create', 'configmap', 'two', '-n', 'lim']);
    expect(second.stderr.trim()).toBe(
      'error: failed to create configmap: configmaps "two" is forbidden: exceeded quota: mem, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1',
    );
  });
});
