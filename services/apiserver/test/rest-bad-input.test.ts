// Bad input and contention over REST against a real apiserver and store:
// each answer as upstream words it, and the server keeps serving.
// Patches without a resourceVersion retry on conflict inside the apiserver
// (upstream: GuaranteedUpdate re-applies the patch to the fresh object);
// one that names a resourceVersion is a precondition and still gets 409.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject, Status } from '@kubelab/api';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';
import { MAX_JSON_DEPTH } from '../src/decoding/json-keys.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe.runIf(requireTool('nats-server'))('bad input and concurrent patches over REST', () => {
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
  const json = { 'content-type': 'application/json' };
  const nested = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  it('%zz in a path is a bare 400 before authentication; the next request is served', async () => {
    const bad = await c.rest('/api/v1/namespaces/%zz/configmaps', { as: 'anonymous' });
    expect([bad.status, bad.body]).toEqual([400, '400 Bad Request']);
    expect((await c.rest('/api/v1/namespaces/default/configmaps')).status).toBe(200);
  });

  it('a garbage Content-Type is a 415 and nothing is stored', async () => {
    const r = await c.rest(CM, { method: 'POST', headers: { 'content-type': 'application/garbage' }, body: JSON.stringify({ metadata: { name: 'garbage' } }) });
    expect([r.status, (JSON.parse(r.body) as Status).message]).toEqual([
      415,
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    ]);
    expect((await c.rest(`${CM}/garbage`)).status).toBe(404);
  });

  it('duplicate fields: 400 under Strict, the last value with a Warning otherwise', async () => {
    const body = '{"metadata":{"name":"dup","name":"dup2"},"data":{"a":"1","a":"2"}}';
    const strict = await c.rest(`${CM}?fieldValidation=Strict`, { method: 'POST', headers: json, body });
    expect([strict.status, (JSON.parse(strict.body) as Status).message]).toEqual([
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.a"',
    ]);
    const warn = await c.rest(CM, { method: 'POST', headers: json, body });
    expect([warn.status, warn.headers.warning]).toEqual([201, '299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"data.a\\""']);
    expect((JSON.parse((await c.rest(`${CM}/dup2`)).body) as { data: Record<string, string> }).data).toEqual({ a: '2' });
  });

  it('deep bodies: 400 past the limit, an ordinary answer just under it, never a 500', async () => {
    const tooDeep = await c.rest(CM, { method: 'POST', headers: json, body: `{"metadata":{"name":"deep"},"data":${nested(100_000)}}` });
    expect([tooDeep.status, (JSON.parse(tooDeep.body) as Status).message]).toEqual([400, "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"]);
    await c.rest(CM, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'target' } }) });
    const patchTooDeep = await c.rest(`${CM}/target`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: `{"data":${nested(100_000)}}` });
    expect([patchTooDeep.status, (JSON.parse(patchTooDeep.body) as Status).message]).toEqual([400, "invalid character '{' exceeded max depth"]);
    const d = MAX_JSON_DEPTH - 10;
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      const wrongType = await c.rest(`${CM}/target`, { method: 'PATCH', headers: { 'content-type': type }, body: `{"data":${nested(d)}}` });
      expect([type, wrongType.status]).toEqual([type, 422]);
      const unknown = await c.rest(`${CM}/target`, { method: 'PATCH', headers: { 'content-type': type }, body: `{"nope":${nested(d)}}` });
      expect([type, unknown.status]).toEqual([type, 200]);
    }
    const jsonPatch = await c.rest(`${CM}/target`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: `[{"op":"add","path":"/metadata/nope","value":${nested(d)}}]`,
    });
    expect(jsonPatch.status).toBe(200);
    const created = await c.rest(CM, { method: 'POST', headers: json, body: `{"metadata":{"name":"deep-ok"},"nope":${nested(d)}}` });
    expect(created.status).toBe(201);
  });
});
