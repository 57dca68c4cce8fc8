// Restarts: the apiserver (nothing lost) and nats-server with file storage
// (the apiserver reconnects; watchers see every revision exactly once).

import { describe, expect, it } from 'vitest';
import { requireTool, retrying } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { api, gvr, openWatch, RpcError } from '../src/testing/index.js';
import { useTestCluster } from './harness.js';

const CMS = gvr('configmaps');

/** Storage unavailable while nats-server restarts: worth retrying. */
const unavailable = (e: unknown) => e instanceof RpcError && (e.status.code === 503 || e.status.code === 504 || e.grpcCode === 14);

describe.runIf(requireTool('nats-server'))('reliability', () => {
  const t = useTestCluster();

  it('restarting the apiserver loses nothing', async () => {
    const k = api(t.c.client());
    const before: KubeObject[] = [];
    for (let i = 0; i < 20; i++) before.push(await k.create(CMS, 'default', { metadata: { name: `keep-${i}` }, data: { i: String(i) } }));
    const listBefore = await k.list(CMS, 'default');
    await t.c.restartApiserver();
    const k2 = api(t.c.client());
    const after = await k2.list(CMS, 'default');
    expect(after.items).toEqual(listBefore.items);
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(listBefore.metadata.resourceVersion));
    const next = await k2.create(CMS, 'default', { metadata: { name: 'after-restart' } });
    expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(Number(listBefore.metadata.resourceVersion));
    // The bootstrap is idempotent: still one kubernetes Service at 10.96.0.1.
    const svcs = await k2.list<KubeObject & { spec: { clusterIP: string } }>(gvr('services'), 'default');
    expect(svcs.items.map((s) => `${s.metadata.name} ${s.spec.clusterIP}`)).toEqual(['kubernetes 10.96.0.1']);
  });

  it('survives a nats-server restart: watchers see every revision exactly once', async () => {
    const k = api(t.c.client());
    await k.create(gvr('namespaces'), '', { metadata: { name: 'rel' } });
    const start = (await k.list(CMS, 'rel')).metadata.resourceVersion;
    const steady = openWatch(t.c.client(), { resource: CMS, namespace: 'rel', resourceVersion: start });
    const resumer = openWatch(t.c.client(), { resource: CMS, namespace: 'rel', resourceVersion: start });
    const written: string[] = [];
    for (let i = 0; i < 10; i++) written.push((await k.create(CMS, 'rel', { metadata: { name: `n${i}` } })).metadata.resourceVersion!);
    await resumer.until((e) => e.length >= 10);
    resumer.close();
    const resumeFrom = resumer.events[resumer.events.length - 1]!.object.metadata.resourceVersion!;

    await t.c.nats.restart();
    for (let i = 10; i < 20; i++) {
      written.push((await retrying(() => k.create(CMS, 'rel', { metadata: { name: `n${i}` } }), unavailable, { everyMs: 100 })).metadata.resourceVersion!);
    }
    for (let i = 0; i < 5; i++) written.push((await k.patch(CMS, 'rel', `n${i}`, { data: { v: '2' } })).metadata.resourceVersion!);

    await steady.until((e) => e.length >= written.length, 15_000);
    expect(steady.events.map((e) => e.object.metadata.resourceVersion)).toEqual(written);
    const resumed = openWatch(t.c.client(), { resource: CMS, namespace: 'rel', resourceVersion: resumeFrom });
    await resumed.until((e) => e.length >= written.length - 10, 15_000);
    expect([...resumer.events, ...resumed.events].map((e) => e.object.metadata.resourceVersion)).toEqual(written);
    steady.close();
    resumed.close();
    const ready = await t.c.rest('/readyz');
    expect(ready.status).toBe(200);
  });
});
