// Bad input over gRPC: every malformed request gets an error naming the
// field, and the server keeps serving (including a bounded random fuzz).

import { describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { api, call, gvr, RpcError, rpcError } from '../src/testing/index.js';
import { useTestCluster } from './harness.js';
import type { Deployment } from '@kubelab/api';

const CMS = gvr('configmaps');

/** A tiny deterministic PRNG so a failing fuzz case can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomShape(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 8);
  if (depth > 3) return pick % 2 ? 'x' : 1;
  switch (pick) {
    case 0:
      return null;
    case 1:
      return Math.floor(r() * 1e6) - 5e5;
    case 2:
      return 'é\u0000"\\' + String.fromCharCode(Math.floor(r() * 0xffff));
    case 3:
      return r() > 0.5;
    case 4:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomShape(r, depth + 1));
    default: {
      const keys = ['metadata', 'name', 'namespace', 'spec', 'status', 'kind', 'apiVersion', 'labels', 'data', 'finalizers', 'resourceVersion', 'containers'];
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(r() * 4); i++) o[keys[Math.floor(r() * keys.length)]!] = randomShape(r, depth + 1);
      return o;
    }
  }
}

describe.runIf(requireTool('nats-server'))('malformed gRPC requests', () => {
  const t = useTestCluster();

  const cases: Array<{ name: string; method: string; req: Record<string, unknown>; code: number; message: RegExp }> = [
    { name: 'bad JSON', method: 'Create', req: { resource: CMS, namespace: 'default', object: Buffer.from('{"metadata": ') }, code: 3, message: /^object: invalid JSON: / },
    { name: 'empty body', method: 'Create', req: { resource: CMS, namespace: 'default' }, code: 3, message: /^object: Required value/ },
    {
      name: 'array body',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('[1,2]') },
      code: 3,
      message: /^object: Invalid value: must be a JSON object, got an array$/,
    },
    {
      name: 'metadata of the wrong type',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('{"metadata":"x"}') },
      code: 3,
      message: /^object\.metadata: Invalid value: must be a JSON object$/,
    },
    {
      name: 'name of the wrong type',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('{"metadata":{"name":5}}') },
      code: 3,
      message: /^object\.metadata\.name: Invalid value: must be a string, got number$/,
    },
    {
      name: 'wrong kind',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('{"kind":"Pod","metadata":{"name":"a"}}') },
      code: 3,
      message: /^the kind in the data \(Pod\) does not match the expected kind \(ConfigMap\)$/,
    },
    {
      name: 'unknown resource',
      method: 'Get',
      req: { resource: gvr('widgets'), namespace: 'default', name: 'x' },
      code: 5,
      message: /^the server could not find the requested resource \(resource: "widgets"/,
    },
    { name: 'missing resource', method: 'List', req: { namespace: 'default' }, code: 3, message: /^resource\.resource: Required value/ },
    {
      name: 'invalid name',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('{"metadata":{"name":"a b*>"}}') },
      code: 3,
      message: /metadata\.name: Invalid value: "a b\*>"/,
    },
    { name: 'name with a slash', method: 'Get', req: { resource: CMS, namespace: 'default', name: 'a/b' }, code: 3, message: /^name: Invalid value: "a\/b"/ },
    { name: 'missing name', method: 'Delete', req: { resource: CMS, namespace: 'default' }, code: 3, message: /^name: Required value/ },
    {
      name: 'bad delete options',
      method: 'Delete',
      req: { resource: CMS, namespace: 'default', name: 'x', options: Buffer.from('{"gracePeriodSeconds":"soon"}') },
      code: 3,
      message: /^options\.gracePeriodSeconds: Invalid value: must be an integer/,
    },
    {
      name: 'bad patch type',
      method: 'Patch',
      req: { resource: CMS, namespace: 'default', name: 'x', patchType: 'text/plain', patch: Buffer.from('{}') },
      code: 3,
      message: /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, /,
    },
    { name: 'bad resourceVersion', method: 'List', req: { resource: CMS, namespace: 'default', resourceVersion: 'abc' }, code: 3, message: /^invalid resource version "abc"$/ },
    { name: 'bad label selector', method: 'List', req: { resource: CMS, namespace: 'default', labelSelector: 'a in (b' }, code: 3, message: /./ },
    {
      name: 'bad dryRun',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from('{"metadata":{"name":"d"}}'), dryRun: 'Some' },
      code: 3,
      message: /^dryRun: Unsupported value: "Some"/,
    },
    { name: 'binding without a target', method: 'Bind', req: { namespace: 'default', binding: Buffer.from('{"metadata":{"name":"p"}}') }, code: 3, message: /target\.name: Required value/ },
    {
      name: 'oversized object',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from(JSON.stringify({ metadata: { name: 'huge' }, data: { x: 'y'.repeat(1_046_000) } })) },
      code: 8,
      message: /request is too large/,
    },
    {
      name: 'object over the ConfigMap limit',
      method: 'Create',
      req: { resource: CMS, namespace: 'default', object: Buffer.from(JSON.stringify({ metadata: { name: 'huger' }, data: { x: 'y'.repeat(1600 * 1024) } })) },
      code: 3,
      message: /^ConfigMap "huger" is invalid: /,
    },
  ];

  for (const tc of cases) {
    it(`${tc.name} → code ${tc.code}`, async () => {
      const e = await rpcError(call(t.client, tc.method, tc.req));
      expect(e.grpcCode).toBe(tc.code);
      expect(e.details).toMatch(tc.message);
      expect(e.status.kind).toBe('Status');
    });
  }

  it("a wrong type anywhere in the object is INVALID_ARGUMENT in the Go decoder's words, on create, update, status and patch, and nothing is stored", async () => {
    const k = api(t.client);
    const DEPLOYS = gvr('deployments', 'apps');
    const badCm = { metadata: { name: 'typed' }, data: { a: 5 } };
    const created = await rpcError(call(t.client, 'Create', { resource: CMS, namespace: 'default', object: Buffer.from(JSON.stringify(badCm)) }));
    expect([created.grpcCode, created.details]).toEqual([3, 'object: Invalid value: json: cannot unmarshal number into Go struct field ConfigMap.data of type string']);
    await expect(k.get(CMS, 'default', 'typed')).rejects.toMatchObject({ grpcCode: 5 });

    const d = await k.create<Deployment>(DEPLOYS, 'default', {
      metadata: { name: 'typed' },
      spec: { selector: { matchLabels: { app: 'typed' } }, template: { metadata: { labels: { app: 'typed' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const stale = { ...d, spec: { ...(d.spec as object), replicas: 'x' } };
    const updated = await rpcError(call(t.client, 'Update', { resource: DEPLOYS, namespace: 'default', name: 'typed', object: Buffer.from(JSON.stringify(stale)) }));
    expect([updated.grpcCode, updated.details]).toEqual([3, 'object: Invalid value: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32']);
    const status = await rpcError(call(t.client, 'UpdateStatus', { resource: DEPLOYS, namespace: 'default', name: 'typed', object: Buffer.from(JSON.stringify({ ...d, status: { replicas: '1' } })) }));
    expect([status.grpcCode, status.details]).toEqual([3, 'object: Invalid value: json: cannot unmarshal string into Go struct field DeploymentStatus.status.replicas of type int32']);
    const patched = await rpcError(
      call(t.client, 'Patch', { resource: DEPLOYS, namespace: 'default', name: 'typed', patchType: 'application/merge-patch+json', patch: Buffer.from('{"spec":{"replicas":"x"}}') }),
    );
    expect(patched.grpcCode).toBe(3);
    expect(patched.status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/) },
    ]);
    const after = await k.get<Deployment>(DEPLOYS, 'default', 'typed');
    expect([after.metadata.resourceVersion, (after.spec as { replicas?: unknown }).replicas]).toEqual([d.metadata.resourceVersion, 1]);
  });

  it('survives random bytes and random shapes, and keeps serving', async () => {
    const r = prng(42);
    const methods = ['Create', 'Update', 'UpdateStatus', 'Patch', 'Delete', 'Bind'];
    const resources = [CMS, gvr('pods'), gvr('services'), gvr('namespaces'), gvr('deployments', 'apps'), gvr('nodes')];
    for (let i = 0; i < 150; i++) {
      const bytes = r() < 0.4 ? Buffer.from(Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256))) : Buffer.from(JSON.stringify(randomShape(r)));
      const method = methods[Math.floor(r() * methods.length)]!;
      const req = {
        resource: resources[Math.floor(r() * resources.length)],
        namespace: r() < 0.7 ? 'default' : '',
        name: r() < 0.8 ? 'fuzz' : '',
        object: bytes,
        patch: bytes,
        options: bytes,
        binding: bytes,
        patchType: r() < 0.5 ? 'application/merge-patch+json' : 'application/json-patch+json',
      };
      try {
        await call(t.client, method, req);
      } catch (e) {
        expect(e).toBeInstanceOf(RpcError);
        // Client mistakes are never reported as server failures.
        expect((e as RpcError).grpcCode, `${method} ${bytes.toString('utf8').slice(0, 80)}: ${(e as RpcError).details}`).not.toBe(13);
      }
    }
    const k = api(t.client);
    const ok = await k.create(CMS, 'default', { metadata: { name: 'after-fuzz' } });
    expect(ok.metadata.name).toBe('after-fuzz');
  });
});
