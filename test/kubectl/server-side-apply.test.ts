// kubectl apply --server-side (the real binaries, 1.27, 1.33 and the
// machine's own) against kubelab's apiserver: create, a dropped field
// removed, another manager's conflict and --force-conflicts, client-side
// then server-side apply, and managedFields shown by get --show-managed-fields;
// then the official JavaScript client's ServerSideApply patch.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiException, AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { KUBECTL, sdkKubectl, startCluster, type Cluster } from './harness.js';

type Obj = Record<string, any>;

const deployment = (name: string, opts: { replicas?: number; paused?: boolean; image?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
${opts.replicas !== undefined ? `  replicas: ${opts.replicas}\n` : ''}${opts.paused !== undefined ? `  paused: ${opts.paused}\n` : ''}  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: ${opts.image ?? 'nginx'}
`;

for (const [label, bin] of [
  ['1.27', sdkKubectl(27)],
  ['1.33', sdkKubectl(33)],
  ['(the machine’s)', KUBECTL],
] as const) {
  const run = requireTool('kubectl') && requirePrerequisite(`kubectl ${label} (${bin})`, existsSync(bin));

  describe.skipIf(!run)(`kubectl ${label}: apply --server-side`, { timeout: 60_000 }, () => {
    let c: Cluster;
    const k = (args: string[], stdin?: string) => c.kubectl(args, stdin === undefined ? { bin } : { bin, stdin });
    const get = async (name: string) => (await c.get('deployments', 'default', name, 'apps')) as Obj;

    beforeAll(async () => {
      c = await startCluster();
    }, 60_000);

    afterAll(async () => {
      await c?.stop();
    });

    it('creates, and removes a field when it is no longer applied', async () => {
      const created = await k(['apply', '--server-side', '-f', '-'], deployment('web', { replicas: 2, paused: true }));
      expect([created.stdout, created.stderr]).toEqual(['deployment.apps/web serverside-applied\n', '']);
      expect((await get('web')).spec.paused).toBe(true);
      const again = await k(['apply', '--server-side', '-f', '-'], deployment('web', { replicas: 2 }));
      expect([again.stdout, again.stderr]).toEqual(['deployment.apps/web serverside-applied\n', '']);
      const d = await get('web');
      expect([d.spec.paused, d.spec.replicas]).toEqual([undefined, 2]);
      expect(d.metadata.managedFields.map((e: Obj) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);
    });

    it('another manager changing .spec.replicas gets the conflict; --force-conflicts wins', async () => {
      const conflict = await k(['apply', '--server-side', '--field-manager=other', '-f', '-'], deployment('web', { replicas: 5 }));
      expect(conflict.code).not.toBe(0);
      expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
      expect(conflict.stderr).toContain('--force-conflicts');
      expect((await get('web')).spec.replicas).toBe(2);
      const forced = await k(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], deployment('web', { replicas: 5 }));
      expect([forced.stdout, forced.stderr]).toEqual(['deployment.apps/web serverside-applied\n', '']);
      const d = await get('web');
      expect(d.spec.replicas).toBe(5);
      const other = d.metadata.managedFields.find((e: Obj) => e.manager === 'other');
      expect(other.fieldsV1['f:spec']['f:replicas']).toEqual({});
      expect(d.metadata.managedFields.find((e: Obj) => e.manager === 'kubectl').fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    });

    it('client-side apply, then server-side apply changing .spec.replicas: the kubectl-client-side-apply conflict', async () => {
      const csa = await k(['apply', '-f', '-'], deployment('csa', { replicas: 1 }));
      expect([csa.stdout, csa.stderr]).toEqual(['deployment.apps/csa created\n', '']);
      expect((await get('csa')).metadata.managedFields.map((e: Obj) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);
      const ssa = await k(['apply', '--server-side', '-f', '-'], deployment('csa', { replicas: 3 }));
      expect(ssa.code).not.toBe(0);
      expect(ssa.stderr.split('\n')[0]).toBe('error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
      expect((await get('csa')).spec.replicas).toBe(1);
      // The same values: no conflict; kubectl then moves the client-side apply's fields to its own entries (csaupgrade), as on a real cluster.
      const same = await k(['apply', '--server-side', '-f', '-'], deployment('csa', { replicas: 1 }));
      expect([same.stdout, same.stderr]).toEqual(['deployment.apps/csa serverside-applied\n', '']);
      const d = await get('csa');
      // Upstream orders Apply entries oldest first (by the second), then by manager: the two may come in either order.
      const entries: Obj[] = d.metadata.managedFields;
      expect(entries.map((e) => [e.manager, e.operation]).sort()).toEqual([
        ['kubectl', 'Apply'],
        ['kubectl-last-applied', 'Apply'],
      ]);
      const [first, second] = entries.map((e) => ({ manager: e.manager as string, seconds: Date.parse(e.time) / 1000 }));
      expect(first!.seconds < second!.seconds || (first!.seconds === second!.seconds && first!.manager === 'kubectl')).toBe(true);
      expect(entries.find((e) => e.manager === 'kubectl-last-applied')?.fieldsV1).toEqual({
        'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } },
      });
      // Now kubectl owns .spec.replicas: changing it goes through.
      expect((await k(['apply', '--server-side', '-f', '-'], deployment('csa', { replicas: 3 }))).stderr).toBe('');
      expect((await get('csa')).spec.replicas).toBe(3);
    });

    it('get -o yaml --show-managed-fields shows the entries (and hides them without the flag)', async () => {
      const shown = await k(['get', 'deployment', 'web', '-o', 'yaml', '--show-managed-fields']);
      expect(shown.stdout).toContain('  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n      f:spec:\n');
      expect(shown.stdout).toMatch(/\n {4}manager: kubectl\n {4}operation: Apply\n {4}time: "?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"?\n/);
      expect(shown.stdout).toContain('    manager: other\n    operation: Apply\n');
      expect((await k(['get', 'deployment', 'web', '-o', 'yaml'])).stdout).not.toContain('managedFields');
    });
  });
}

describe.skipIf(!requireTool('kubectl'))('@kubernetes/client-node: a ServerSideApply patch', { timeout: 60_000 }, () => {
  let c: Cluster;
  let apps: AppsV1Api;
  const body = (replicas: number): V1Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'js', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'js' } }, template: { metadata: { labels: { app: 'js' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  });
  const ssa = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

  beforeAll(async () => {
    c = await startCluster();
    const kc = new KubeConfig();
    kc.loadFromFile(join(c.dir, 'kubeconfig'));
    apps = kc.makeApiClient(AppsV1Api);
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('creates with fieldManager, conflicts for another manager (409 with upstream’s Status), wins with force', async () => {
    const created = await apps.patchNamespacedDeployment({ name: 'js', namespace: 'default', body: body(2), fieldManager: 'js-client' }, ssa);
    expect(created.spec?.replicas).toBe(2);
    expect(created.metadata?.managedFields?.map((e) => [e.manager, e.operation, e.apiVersion, e.fieldsType])).toEqual([['js-client', 'Apply', 'apps/v1', 'FieldsV1']]);

    const err = await apps.patchNamespacedDeployment({ name: 'js', namespace: 'default', body: body(4), fieldManager: 'other' }, ssa).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiException);
    const status = JSON.parse((err as ApiException<string>).body) as { reason: string; message: string; details: { causes: unknown[] } };
    expect([(err as ApiException<string>).code, status.reason, status.message]).toEqual([409, 'Conflict', 'Apply failed with 1 conflict: conflict with "js-client": .spec.replicas']);
    expect(status.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "js-client"', field: '.spec.replicas' }]);

    const forced = await apps.patchNamespacedDeployment({ name: 'js', namespace: 'default', body: body(4), fieldManager: 'other', force: true }, ssa);
    expect(forced.spec?.replicas).toBe(4);
    expect(forced.metadata?.managedFields?.map((e) => e.manager)).toEqual(['js-client', 'other']);
  });
});
