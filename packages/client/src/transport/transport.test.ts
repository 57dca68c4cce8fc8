// The client against a stub ResourceService on loopback: error mapping from
// the kubelab-status trailer and from bare codes, read retries, metadata.
import * as grpc from '@grpc/grpc-js';
import { StatusError, alreadyExists, notFound, tooManyRequests } from '@kubelab/api';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { newMetricsRegistry } from '@kubelab/component-base';
import { createClientset } from '../clientset/clientset.js';
import { registerClientMetrics } from './metrics.js';

type Handlers = Partial<ResourceServiceHandlers>;
const servers: grpc.Server[] = [];
const closers: Array<() => void> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) c();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.tryShutdown(() => r()))));
});

async function stub(handlers: Handlers): Promise<string> {
  const server = new grpc.Server();
  const unimplemented = (_: unknown, cb: (e: grpc.ServiceError) => void) => cb({ code: grpc.status.UNIMPLEMENTED } as grpc.ServiceError);
  const all = Object.fromEntries(['Get', 'List', 'Watch', 'Create', 'Update', 'UpdateStatus', 'Patch', 'Delete', 'Bind'].map((m) => [m, unimplemented]));
  server.addService(apiserverProto().kubelab.apiserver.v1.ResourceService.service, { ...all, ...handlers } as ResourceServiceHandlers);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  servers.push(server);
  return `127.0.0.1:${port}`;
}

function client(address: string) {
  const cs = createClientset({ address, component: 'kube-scheduler', readRetries: { initialMs: 1, maxMs: 2 } });
  closers.push(() => cs.close());
  return cs;
}

function statusTrailer(err: StatusError, code: grpc.status): grpc.ServiceError {
  const md = new grpc.Metadata();
  md.set('kubelab-status', JSON.stringify(err.status));
  return Object.assign(new Error(err.message), { code, details: err.message, metadata: md });
}

describe('gRPC transport', () => {
  it('turns the kubelab-status trailer back into the StatusError the server raised', async () => {
    const address = await stub({
      Get: (_call, cb) => cb(statusTrailer(notFound({ group: '', resource: 'pods' }, 'web-1'), grpc.status.NOT_FOUND)),
    });
    const err = await client(address)
      .core.pods('default')
      .get('web-1')
      .catch((e: unknown) => e);
    expect(StatusError.isInstance(err)).toBe(true);
    expect((err as StatusError).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "web-1" not found',
      reason: 'NotFound',
      details: { name: 'web-1', kind: 'pods' },
      code: 404,
    });
  });

  it('maps a bare gRPC code when there is no trailer', async () => {
    const address = await stub({
      Update: (_call, cb) => cb({ code: grpc.status.ABORTED, details: 'stale', metadata: new grpc.Metadata() } as grpc.ServiceError),
      Create: (_call, cb) => cb({ code: grpc.status.FAILED_PRECONDITION, details: 'too old', metadata: new grpc.Metadata() } as grpc.ServiceError),
    });
    const cs = client(address);
    const conflict = (await cs.core
      .configMaps('default')
      .update({ metadata: { name: 'x' } })
      .catch((e) => e)) as StatusError;
    expect([conflict.code, conflict.reason, conflict.message]).toEqual([409, 'Conflict', 'stale']);
    const gone = (await cs.core
      .configMaps('default')
      .create({ metadata: { name: 'x' } })
      .catch((e) => e)) as StatusError;
    expect([gone.code, gone.reason]).toEqual([410, 'Expired']);
  });

  it('retries reads while UNAVAILABLE, but never writes', async () => {
    let gets = 0;
    let creates = 0;
    const unavailable = { code: grpc.status.UNAVAILABLE, details: 'warming up', metadata: new grpc.Metadata() } as grpc.ServiceError;
    const address = await stub({
      Get: (_call, cb) => {
        gets++;
        if (gets < 3) return cb(unavailable);
        cb(null, { json: Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } })) });
      },
      Create: (_call, cb) => {
        creates++;
        cb(unavailable);
      },
    });
    const cs = client(address);
    expect((await cs.core.configMaps('default').get('x')).metadata.name).toBe('x');
    expect(gets).toBe(3);
    const err = (await cs.core
      .configMaps('default')
      .create({ metadata: { name: 'y' } })
      .catch((e) => e)) as StatusError;
    expect([err.code, err.reason, creates]).toEqual([503, 'ServiceUnavailable', 1]);
  });

  it('sends a write again after a 429 with Retry-After (API Priority and Fairness refused it unprocessed), as client-go does; a 429 without one is final', async () => {
    let updates = 0;
    let patches = 0;
    const cm = { apiVersion: 'v1' as const, kind: 'ConfigMap' as const, metadata: { name: 'x', namespace: 'default' } };
    const address = await stub({
      Update: (_call, cb) => {
        updates++;
        if (updates < 3) return cb(statusTrailer(tooManyRequests('Too many requests, please try again later.', 1), grpc.status.RESOURCE_EXHAUSTED));
        cb(null, { json: Buffer.from(JSON.stringify(cm)) });
      },
      Patch: (_call, cb) => {
        patches++;
        cb(
          statusTrailer(
            new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 429, reason: 'TooManyRequests', message: 'slow down' }),
            grpc.status.RESOURCE_EXHAUSTED,
          ),
        );
      },
    });
    const cs = client(address);
    const started = Date.now();
    expect((await cs.core.configMaps('default').update(cm)).metadata.name).toBe('x');
    expect(updates).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    const err = (await cs.core
      .configMaps('default')
      .patch('x', 'application/merge-patch+json', { data: {} })
      .catch((e) => e)) as StatusError;
    expect([err.code, err.message, patches]).toEqual([429, 'slow down', 1]);
  });

  it('sends the request fields, user agent and the caller traceparent', async () => {
    let seen: { req?: unknown; md?: grpc.MetadataValue[]; ua?: string } = {};
    const address = await stub({
      Patch: (call, cb) => {
        seen = { req: { ...call.request, patch: call.request.patch.toString() }, md: call.metadata.get('traceparent'), ua: String(call.metadata.get('user-agent')[0]) };
        cb(null, { json: Buffer.from('{"metadata":{"name":"web"}}') });
      },
    });
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await client(address)
      .apps.deployments('prod')
      .patch('web', 'merge', { spec: { replicas: 3 } }, { traceparent: tp, subresource: 'status', fieldManager: 'kubectl' });
    expect(seen.req).toEqual({
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      namespace: 'prod',
      name: 'web',
      patchType: 'application/merge-patch+json',
      patch: '{"spec":{"replicas":3}}',
      subresource: 'status',
      dryRun: '',
      fieldManager: 'kubectl',
    });
    expect(seen.md).toEqual([tp]);
    expect(seen.ua).toMatch(/^kube-scheduler\/kubelab /);
  });

  it('streams watch events, ERROR events included, and ends quietly on stop()', async () => {
    let onCancel = () => {};
    const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
    const address = await stub({
      Watch: (call) => {
        call.write({ type: 'ADDED', object: Buffer.from('{"metadata":{"name":"a","resourceVersion":"5"}}') });
        call.write({ type: 'ERROR', object: Buffer.from(JSON.stringify({ kind: 'Status', code: 410, reason: 'Expired' })) });
        call.on('cancelled', () => onCancel());
      },
    });
    const w = client(address).core.pods('').watch({ resourceVersion: '4' });
    const got: string[] = [];
    for await (const ev of w) {
      got.push(`${ev.type} ${ev.object.metadata?.name ?? (ev.object as unknown as { reason: string }).reason}`);
      if (got.length === 2) w.stop();
    }
    expect(got).toEqual(['ADDED a', 'ERROR Expired']);
    await cancelled; // the server saw the stream cancelled (the test times out otherwise)
  });

  it('counts every call in rest_client_requests_total by the code, host and method of the REST request it stands for', async () => {
    const address = await stub({
      Get: (call, cb) =>
        call.request.name === 'web' ? cb(null, { json: Buffer.from('{"metadata":{"name":"web"}}') }) : cb(statusTrailer(notFound({ group: '', resource: 'pods' }, 'x'), grpc.status.NOT_FOUND)),
      Update: (_call, cb) => cb(null, { json: Buffer.from('{"metadata":{"name":"web"}}') }),
    });
    const pods = client(address).core.pods('default');
    await pods.get('web');
    await pods.get('web');
    await pods.get('missing').catch(() => undefined);
    await pods.update({ metadata: { name: 'web', namespace: 'default' } } as never);
    const registry = newMetricsRegistry();
    registerClientMetrics(registry);
    const text = await registry.metrics();
    expect(text).toContain(`rest_client_requests_total{code="200",host="${address}",method="GET"} 2`);
    expect(text).toContain(`rest_client_requests_total{code="404",host="${address}",method="GET"} 1`);
    expect(text).toContain(`rest_client_requests_total{code="200",host="${address}",method="PUT"} 1`);
    expect(text).toContain(`rest_client_request_duration_seconds_count{host="${address}",verb="GET"} 3`);
    expect(text).toContain('# TYPE rest_client_request_duration_seconds histogram');
  });
});

describe('pipelined creates (CreateStream)', () => {
  const cm = (name: string) => ({ metadata: { name } });

  it('answers each create by id, out of order, with the same StatusError a Create call gives', async () => {
    const seen: Array<{ id: number; name: string; namespace: string }> = [];
    let messages = 0;
    const address = await stub({
      CreateStream: (call) => {
        call.on('data', (msg: { items: Array<{ id: number; request: { namespace: string; object: Buffer } }> }) => {
          messages++;
          const results = msg.items.map((it) => {
            const name = (JSON.parse(it.request.object.toString()) as { metadata: { name: string } }).metadata.name;
            seen.push({ id: it.id, name, namespace: it.request.namespace });
            if (name === 'taken') {
              const status = alreadyExists({ group: '', resource: 'configmaps' }, 'taken').status;
              return { id: it.id, code: grpc.status.ALREADY_EXISTS, object: Buffer.alloc(0), status: Buffer.from(JSON.stringify(status)) };
            }
            return { id: it.id, code: grpc.status.OK, object: Buffer.from(JSON.stringify({ metadata: { name, resourceVersion: '7' } })), status: Buffer.alloc(0) };
          });
          call.write({ results: results.reverse() });
        });
        call.on('end', () => call.end());
      },
    });
    const cms = client(address).core.configMaps('default');
    const outcomes = await Promise.all(
      ['a', 'taken', 'b'].map((n) =>
        cms.create(cm(n)).then(
          (o) => o.metadata.name,
          (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
        ),
      ),
    );
    expect(outcomes).toEqual(['a', '409 AlreadyExists: configmaps "taken" already exists', 'b']);
    expect(messages).toBe(1); // issued in one I/O turn: one message
    expect(seen.map((s) => `${s.namespace}/${s.name}`)).toEqual(['default/a', 'default/taken', 'default/b']);
    expect(new Set(seen.map((s) => s.id)).size).toBe(3);
  });

  it('fails the unanswered creates when the stream fails, and opens a new stream for the next ones', async () => {
    let streams = 0;
    const address = await stub({
      CreateStream: (call) => {
        streams++;
        const first = streams === 1;
        call.on('data', (msg: { items: Array<{ id: number }> }) => {
          if (first) return call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'apiserver shutting down' });
          call.write({ results: msg.items.map((it) => ({ id: it.id, code: 0, object: Buffer.from('{"metadata":{"name":"again"}}'), status: Buffer.alloc(0) })) });
        });
      },
    });
    const cms = client(address).core.configMaps('default');
    const err = (await cms.create(cm('x')).catch((e: unknown) => e)) as StatusError;
    expect([err.code, err.reason, err.message]).toEqual([503, 'ServiceUnavailable', 'apiserver shutting down']);
    expect((await cms.create(cm('again'))).metadata.name).toBe('again');
    expect(streams).toBe(2);
  });

  it('fails queued and unanswered creates when the client is closed, and throws nothing afterwards', async () => {
    const address = await stub({ CreateStream: () => undefined }); // never answers
    const cs = createClientset({ address, component: 'kube-controller-manager' });
    const cms = cs.core.configMaps('default');
    // A create that resolves reads as 'answered', which the assertion rejects.
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: StatusError) => `${e.code} ${e.message}`,
      );
    const sent = outcome(cms.create(cm('sent')));
    await new Promise((r) => setTimeout(r, 50)); // flushed onto the stream, unanswered
    const queued = outcome(cms.create(cm('queued'))); // its flush is still scheduled
    cs.close();
    const after = await outcome(cms.create(cm('after')));
    const outcomes = await Promise.all([sent, queued]);
    await new Promise((r) => setImmediate(r)); // the scheduled flush ran: no uncaught "Channel has been shut down"
    expect([...outcomes, after].every((o) => /the client was closed before the create was answered$/.test(o))).toBe(true);
  });

  it('sends bindings on the same stream as creates (the scheduler binds every pod it places), each answered by id', async () => {
    const items: string[] = [];
    let messages = 0;
    const address = await stub({
      CreateStream: (call) => {
        call.on('data', (msg: { items: Array<{ id: number; write: string; request?: { object: Buffer }; bind?: { namespace: string; binding: Buffer } }> }) => {
          messages++;
          const results = msg.items.map((it) => {
            if (it.write === 'bind') {
              const b = JSON.parse(it.bind!.binding.toString()) as { kind: string; metadata: { name: string }; target: { name: string } };
              items.push(`bind ${it.bind!.namespace}/${b.metadata.name} → ${b.target.name} (${b.kind})`);
              if (b.metadata.name === 'placed') {
                const status = new StatusError({
                  kind: 'Status',
                  apiVersion: 'v1',
                  metadata: {},
                  status: 'Failure',
                  code: 409,
                  reason: 'Conflict',
                  message: 'Operation cannot be fulfilled on pods/binding "placed": pod placed is already assigned to node "n1"',
                }).status;
                return { id: it.id, code: grpc.status.ABORTED, object: Buffer.alloc(0), status: Buffer.from(JSON.stringify(status)) };
              }
              return { id: it.id, code: grpc.status.OK, object: Buffer.alloc(0), status: Buffer.alloc(0) };
            }
            items.push(`create ${(JSON.parse(it.request!.object.toString()) as { metadata: { name: string } }).metadata.name}`);
            return { id: it.id, code: grpc.status.OK, object: it.request!.object, status: Buffer.alloc(0) };
          });
          call.write({ results });
        });
        call.on('end', () => call.end());
      },
    });
    const cs = client(address);
    const pods = cs.core.pods('default');
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
      );
    const got = await Promise.all([
      outcome(pods.bind({ metadata: { name: 'web-1' }, target: { name: 'n2' } })),
      outcome(cs.core.configMaps('default').create(cm('c'))),
      outcome(pods.bind({ metadata: { name: 'placed' }, target: { name: 'n2' } })),
    ]);
    expect(got).toEqual(['ok', 'ok', '409 Conflict: Operation cannot be fulfilled on pods/binding "placed": pod placed is already assigned to node "n1"']);
    expect(items).toEqual(['bind default/web-1 → n2 (Binding)', 'create c', 'bind default/placed → n2 (Binding)']);
    expect(messages).toBe(1);
  });

  it('falls back to Bind calls when the apiserver has no CreateStream', async () => {
    const bound: string[] = [];
    const address = await stub({
      Bind: (call, cb) => {
        bound.push((JSON.parse(call.request.binding.toString()) as { metadata: { name: string } }).metadata.name);
        cb(null, {});
      },
    });
    const pods = client(address).core.pods('default');
    await Promise.all(['a', 'b'].map((n) => pods.bind({ metadata: { name: n }, target: { name: 'n1' } })));
    await pods.bind({ metadata: { name: 'c' }, target: { name: 'n1' } });
    expect(bound).toEqual(['a', 'b', 'c']);
  });

  it('falls back to Create calls when the apiserver has no CreateStream', async () => {
    let creates = 0;
    const address = await stub({
      Create: (call, cb) => {
        creates++;
        cb(null, { json: Buffer.from(JSON.stringify({ metadata: { name: (JSON.parse(call.request.object.toString()) as { metadata: { name: string } }).metadata.name } })) });
      },
    });
    const cms = client(address).core.configMaps('default');
    const names = await Promise.all(['a', 'b'].map((n) => cms.create(cm(n)).then((o) => o.metadata.name)));
    expect(names).toEqual(['a', 'b']);
    expect((await cms.create(cm('c'))).metadata.name).toBe('c');
    expect(creates).toBe(3);
  });
});
