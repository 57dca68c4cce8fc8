// Server-side apply and managedFields against a real apiserver, over REST (as
// kubectl and the official clients send it) and gRPC (as components write):
// apply creates, removes what a manager stopped applying, conflicts with
// upstream's Status, force, manager names from fieldManager or User-Agent,
// status writes as their own entries, and resetting managedFields.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject, ManagedFieldsEntry, Status } from '@kubelab/api';
import { api, RpcError, startTestCluster, type TestCluster } from '../src/testing/index.js';

const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };
const BASE = '/apis/apps/v1/namespaces/default/deployments';

type Deployment = KubeObject & { spec: { replicas?: number; paused?: boolean } };

const config = (name: string, spec: Record<string, unknown>, labels?: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    ...spec,
  },
});

const entries = (o: KubeObject) => (o.metadata.managedFields ?? []).map((e: ManagedFieldsEntry) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`);

describe.runIf(requireTool('nats-server'))('server-side apply', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  async function apply(name: string, body: unknown, query: string): Promise<{ status: number; body: Deployment & Status }> {
    const r = await c.rest(`${BASE}/${name}?${query}`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify(body) });
    return { status: r.status, body: JSON.parse(r.body) as Deployment & Status };
  }

  it('creates, owns what it applied, and removes what it no longer applies', async () => {
    const created = await apply('ssa', config('ssa', { replicas: 2, paused: true }, { tier: 'web' }), 'fieldManager=kubectl');
    expect(created.status).toBe(201);
    const [entry] = created.body.metadata.managedFields!;
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' });
    expect(entry!.fieldsV1).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:tier': {} } }, 'f:spec': { 'f:replicas': {}, 'f:paused': {}, 'f:selector': {} } });
    expect(created.body.spec.paused).toBe(true);

    const again = await apply('ssa', config('ssa', { replicas: 2 }), 'fieldManager=kubectl');
    expect(again.status).toBe(200);
    expect([again.body.spec.paused, again.body.metadata.labels]).toEqual([undefined, undefined]);
  });

  it('a second manager changing a field gets upstream’s conflict; force takes it over', async () => {
    await apply('ssa2', config('ssa2', { replicas: 2 }), 'fieldManager=kubectl');
    const conflict = await apply('ssa2', config('ssa2', { replicas: 5 }), 'fieldManager=other');
    expect([conflict.status, conflict.body.reason, conflict.body.message]).toEqual([409, 'Conflict', 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas']);
    expect(conflict.body.details?.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' }]);

    const forced = await apply('ssa2', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ssa2' }, spec: { replicas: 5 } }, 'fieldManager=other&force=true');
    expect([forced.status, forced.body.spec.replicas]).toEqual([200, 5]);
    const byManager = Object.fromEntries(forced.body.metadata.managedFields!.map((e) => [e.manager, e.fieldsV1 as { 'f:spec': Record<string, unknown> }]));
    expect(byManager.other).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(byManager.kubectl!['f:spec']['f:replicas']).toBeUndefined();
  });

  it('an update (merge patch) is an Update entry and conflicts with a later apply, named with its apiVersion', async () => {
    await apply('ssa3', config('ssa3', { replicas: 1 }), 'fieldManager=kubectl');
    const r = await c.rest(`${BASE}/ssa3?fieldManager=kubectl-client-side-apply`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":3}}' });
    expect(entries(JSON.parse(r.body) as KubeObject)).toEqual(['kubectl/Apply', 'kubectl-client-side-apply/Update']);
    const conflict = await apply('ssa3', config('ssa3', { replicas: 1 }), 'fieldManager=kubectl');
    expect(conflict.body.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
  });

  it('refuses an apply without fieldManager, and force on other patches, in upstream words', async () => {
    const noManager = await apply('ssa', config('ssa', {}), '');
    expect([noManager.status, noManager.body.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch']);
    const r = await c.rest(`${BASE}/ssa?force=true`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{}' });
    expect([r.status, (JSON.parse(r.body) as Status).message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch']);
  });

  it('without fieldManager a write is attributed to the User-Agent’s first word', async () => {
    const r = await c.rest(BASE, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc' },
      body: JSON.stringify(config('ua', {})),
    });
    expect(entries(JSON.parse(r.body) as KubeObject)).toEqual(['kubectl/Update']);
  });

  it('PUT with managedFields [{}] resets them', async () => {
    const cur = JSON.parse((await c.rest(`${BASE}/ua`)).body) as KubeObject;
    cur.metadata.managedFields = [{}];
    const r = await c.rest(`${BASE}/ua`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cur) });
    expect([r.status, (JSON.parse(r.body) as KubeObject).metadata.managedFields]).toEqual([200, undefined]);
  });

  it('gRPC writes: the component’s User-Agent names the manager, status writes are their own entry, apply conflicts carry the Status', async () => {
    const k = api(c.client({ 'grpc.primary_user_agent': 'kube-controller-manager/kubelab' }));
    const created = await k.create<Deployment>(DEPLOYMENTS, 'default', config('grpc', { replicas: 1 }));
    expect(entries(created)).toEqual(['kube-controller-manager/Update']);
    const withStatus = await k.updateStatus<Deployment>(DEPLOYMENTS, 'default', { ...created, status: { observedGeneration: 1, replicas: 1 } } as KubeObject);
    expect(entries(withStatus)).toEqual(['kube-controller-manager/Update', 'kube-controller-manager/Update/status']);
    expect(withStatus.metadata.managedFields![1]!.fieldsV1).toEqual({ 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } });

    const err = await k.patch(DEPLOYMENTS, 'default', 'grpc', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'grpc' }, spec: { replicas: 4 } }, 'application/apply-patch+yaml').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).status.message).toBe('Apply failed with 1 conflict: conflict with "kube-controller-manager" using apps/v1: .spec.replicas');
  });
});
