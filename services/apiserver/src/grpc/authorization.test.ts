// Every ResourceService method is authorized with the verb and resource it
// maps to; a refusal is PERMISSION_DENIED with the 403 Status in the trailer.

import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiserverProto, type ResourceServiceClient } from '@kubelab/proto';
import { FakeRegistry } from '../testing/fake-registry.js';
import { api, gvr, rpcError } from '../testing/rpc.js';
import type { AuthorizationAttributes } from '../authorization/types.js';
import { superuserAuthorizer, unionAuthorizer } from '../authorization/union.js';
import { startGrpcServer, type RunningGrpcServer } from './server.js';

const asked: string[] = [];
/** jane may read pods in default; what was asked is recorded as `verb resource[/sub] ns/name`. */
const authorizer = unionAuthorizer([
  superuserAuthorizer,
  {
    authorize: (a: AuthorizationAttributes) => {
      asked.push(`${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
      return a.user.name === 'jane' && a.resource === 'pods' && !a.subresource && a.namespace === 'default' && ['get', 'list', 'watch'].includes(a.verb)
        ? { decision: 'Allow', reason: '' }
        : { decision: 'NoOpinion', reason: '' };
    },
  },
]);

let server: RunningGrpcServer;
let admin: ResourceServiceClient;
let jane: ResourceServiceClient;
beforeAll(async () => {
  server = await startGrpcServer('127.0.0.1', 0, {
    registry: new FakeRegistry(),
    authorizer,
    // The caller's name from a test header (mTLS will name it for real).
    userOfCall: (call) => {
      const who = (call as { metadata?: grpc.Metadata }).metadata?.get('x-test-user')[0];
      return who ? { name: String(who), groups: ['system:authenticated'] } : undefined;
    },
  });
  const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
  admin = new Ctor(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
  // Every call of this client names jane.
  const asJane: grpc.Interceptor = (options, next) =>
    new grpc.InterceptingCall(next(options), {
      start(metadata, listener, start) {
        metadata.set('x-test-user', 'jane');
        start(metadata, listener);
      },
    });
  jane = new Ctor(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure(), { interceptors: [asJane] });
});
afterAll(async () => {
  admin?.close();
  jane?.close();
  await server?.stop();
});

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } });

describe('gRPC authorization', () => {
  it('lets the insecure superuser do anything and jane what she may', async () => {
    await api(admin).create(gvr('pods'), 'default', pod('web'));
    expect((await api(jane).get(gvr('pods'), 'default', 'web')).metadata.name).toBe('web');
    expect((await api(jane).list(gvr('pods'), 'default')).items).toHaveLength(1);
  });

  it('refuses with PERMISSION_DENIED and the 403 Status, naming the verb each method maps to', async () => {
    const k = api(jane);
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => k.create(gvr('pods'), 'default', pod('x')), 'create pods default/', 'pods is forbidden: User "jane" cannot create resource "pods" in API group "" in the namespace "default"'],
      [
        () => k.update(gvr('pods'), 'default', pod('web') as never),
        'update pods default/web',
        'pods "web" is forbidden: User "jane" cannot update resource "pods" in API group "" in the namespace "default"',
      ],
      [
        () => k.updateStatus(gvr('pods'), 'default', pod('web') as never),
        'update pods/status default/web',
        'pods "web" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "default"',
      ],
      [() => k.patch(gvr('pods'), 'default', 'web', {}), 'patch pods default/web', 'pods "web" is forbidden: User "jane" cannot patch resource "pods" in API group "" in the namespace "default"'],
      [() => k.delete(gvr('pods'), 'default', 'web'), 'delete pods default/web', 'pods "web" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "default"'],
      [
        () => k.bind('default', 'web', 'node-1'),
        'create pods/binding default/web',
        'pods "web" is forbidden: User "jane" cannot create resource "pods/binding" in API group "" in the namespace "default"',
      ],
      [() => k.list(gvr('pods'), 'kube-system'), 'list pods kube-system/', 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "kube-system"'],
      [() => k.get(gvr('secrets'), 'default', 's'), 'get secrets default/s', 'secrets "s" is forbidden: User "jane" cannot get resource "secrets" in API group "" in the namespace "default"'],
    ];
    for (const [p, what, message] of cases) {
      asked.length = 0;
      const e = await rpcError(p());
      expect(asked).toEqual([what]);
      expect(e.grpcCode).toBe(grpc.status.PERMISSION_DENIED);
      expect(e.status).toMatchObject({ code: 403, reason: 'Forbidden', message });
    }
  });

  it('authorizes each CreateStream item as its own call: a create, a binding (create pods/binding), an update, a status patch', async () => {
    asked.length = 0;
    const stream = (jane as unknown as { CreateStream(): grpc.ClientDuplexStream<unknown, { results: Array<{ id: number; code: number; status: Buffer }> }> }).CreateStream();
    const results: Array<{ id: number; code: number; status: Buffer }> = [];
    const ended = new Promise<void>((resolve) => {
      stream.on('data', (m) => results.push(...m.results));
      stream.on('end', resolve);
    });
    const json = (o: object) => Buffer.from(JSON.stringify(o));
    stream.write({
      items: [
        { id: 1, request: { resource: gvr('pods'), namespace: 'default', object: json(pod('y')) } },
        { id: 2, bind: { namespace: 'default', binding: json({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { name: 'node-1' } }) } },
        { id: 3, update: { resource: gvr('pods'), namespace: 'default', name: 'web', object: json(pod('web')) } },
        { id: 4, patch: { resource: gvr('pods'), namespace: 'default', name: 'web', patchType: 'application/merge-patch+json', patch: json({}), subresource: 'status' } },
      ],
    });
    stream.end();
    await ended;
    expect(asked.sort()).toEqual(['create pods default/', 'create pods/binding default/web', 'patch pods/status default/web', 'update pods default/web']);
    const byId = new Map(results.map((r) => [r.id, r]));
    expect([1, 2, 3, 4].map((id) => byId.get(id)?.code)).toEqual(Array(4).fill(grpc.status.PERMISSION_DENIED));
    expect((JSON.parse(byId.get(2)!.status.toString()) as { message: string }).message).toBe(
      'pods "web" is forbidden: User "jane" cannot create resource "pods/binding" in API group "" in the namespace "default"',
    );
  });

  it('authorizes a watch before it starts', async () => {
    const stream = (jane as unknown as { Watch(r: unknown): grpc.ClientReadableStream<unknown> }).Watch({ resource: gvr('secrets'), namespace: 'default' });
    const err = await new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
  });
});
