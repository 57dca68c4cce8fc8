// Authentication at the secure port and the gRPC port with real TLS: who may
// connect, and the 401 every failed credential gets (upstream's text).

import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { apiserverProto } from '@kubelab/proto';
import { requireTool } from '@kubelab/testing';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

describe.runIf(requireTool('nats-server'))('authentication', () => {
  let c: TestCluster;
  let stranger: TestPki;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
    stranger = await TestPki.create();
  }, 60_000);
  afterAll(() => c?.cleanup());

  it('serves HTTPS only: a plain HTTP request gets no answer', async () => {
    const r = await fetch(`http://127.0.0.1:${c.apiserver.restPort}/version`).then(
      (x) => x.status,
      (e: Error) => e.message,
    );
    expect(r).not.toBe(200);
  });

  it('knows the admin by its client certificate', async () => {
    const r = await c.rest('/api/v1/namespaces/default');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
  });

  it('lets a request without credentials through as anonymous (--anonymous-auth defaults to true)', async () => {
    expect((await c.rest('/version', { as: 'anonymous' })).status).toBe(200);
  });

  it.each([
    ['a certificate from another CA', async () => ({ as: await stranger.client() })],
    ['an expired certificate', async () => ({ as: await c.pki.client(undefined, { now: new Date('2020-01-01T00:00:00Z'), validityDays: 1 }) })],
    ['a bearer token nobody issued', async () => ({ as: 'anonymous' as const, headers: { authorization: 'Bearer abcdef.0123456789abcdef' } })],
  ])('answers %s with 401 Unauthorized', async (_, opts) => {
    const r = await c.rest('/api/v1/namespaces', await opts());
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toEqual(UNAUTHORIZED);
  });

  it('with --anonymous-auth=false, answers a request without credentials with 401', async () => {
    const strict = await startTestCluster({ rest: true, anonymousAuth: false });
    try {
      const r = await strict.rest('/healthz', { as: 'anonymous' });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toEqual(UNAUTHORIZED);
    } finally {
      await strict.cleanup();
    }
  }, 60_000);

  it('requires a client certificate from the cluster CA on the gRPC port (mutual TLS)', async () => {
    const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
    const get = (creds: grpc.ChannelCredentials) =>
      new Promise<string>((resolve) => {
        const client = new Ctor(c.grpcAddress, creds);
        client.Get({ resource: { group: '', version: 'v1', resource: 'namespaces' }, name: 'default' }, { deadline: Date.now() + 3_000 }, (err) => {
          client.close();
          resolve(err ? grpc.status[err.code] : 'OK');
        });
      });
    const other = await stranger.client();
    expect(await get(grpc.credentials.createSsl(Buffer.from(c.pki.caPem)))).not.toBe('OK');
    expect(await get(grpc.credentials.createSsl(Buffer.from(c.pki.caPem), Buffer.from(other.key), Buffer.from(other.cert)))).not.toBe('OK');
    expect(await get(grpc.credentials.createInsecure())).not.toBe('OK');
    const admin = c.clientConfig.tls;
    expect(await get(grpc.credentials.createSsl(Buffer.from(admin.caPem), Buffer.from(admin.keyPem), Buffer.from(admin.certPem)))).toBe('OK');
  });
});
