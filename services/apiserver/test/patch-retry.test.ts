// Patches without a resourceVersion retry on conflict inside the apiserver
// (upstream: GuaranteedUpdate re-applies the patch to the fresh object);
// one that names a resourceVersion is a precondition and still gets 409.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject, Status } from '@kubelab/api';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe.runIf(requireTool('nats-server'))('concurrent patches over REST', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
  });
  afterAll(async () => {
    await c?.cleanup();
  });

  it('200 concurrent merge patches without a resourceVersion all succeed, and none is lost', async () => {
    const created = await c.rest(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'hot' }, data: {} }) });
    expect(created.status).toBe(201);
    const n = 200;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        c.rest(`${CM}/hot`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { [`k${i}`]: String(i) } }) }),
      ),
    );
    const codes = new Map<number, number>();
    for (const a of answers) codes.set(a.status, (codes.get(a.status) ?? 0) + 1);
    expect([...codes]).toEqual([[200, n]]);
    const final = JSON.parse((await c.rest(`${CM}/hot`)).body) as KubeObject & { data: Record<string, string> };
    expect(Object.keys(final.data)).toHaveLength(n);
  });

  it('a patch carrying a stale resourceVersion is a 409 Conflict, not retried', async () => {
    const created = await c.rest(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'pinned' }, data: { a: '1' } }) });
    const rv = (JSON.parse(created.body) as KubeObject).metadata.resourceVersion!;
    const moved = await c.rest(`${CM}/pinned`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { a: '2' } }) });
    expect(moved.status).toBe(200);
    const stale = await c.rest(`${CM}/pinned`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { resourceVersion: rv }, data: { a: '3' } }),
    });
    const status = JSON.parse(stale.body) as Status;
    expect([stale.status, status.reason, status.message]).toEqual([
      409,
      'Conflict',
      'Operation cannot be fulfilled on configmaps "pinned": the object has been modified; please apply your changes to the latest version and try again',
    ]);
    expect((JSON.parse((await c.rest(`${CM}/pinned`)).body) as { data: Record<string, string> }).data.a).toBe('2');
  });
});
