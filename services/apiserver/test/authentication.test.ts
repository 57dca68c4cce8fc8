// Authentication at the secure port and the gRPC port with real TLS: who may
// connect, and the 401 every failed credential gets (upstream's text).

import { generateKeyPairSync } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { apiserverProto } from '@kubelab/proto';
import { requireTool } from '@kubelab/testing';
import { boundClaims, parseSigningKey, signToken, type SigningKey } from '@kubelab/serviceaccount';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER as DEFAULT_ISSUER } from '../src/serviceaccount/options.js';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

const FORBIDDEN = (message: string, name: string | undefined, kind: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Forbidden',
  details: { ...(name ? { name } : {}), kind },
  code: 403,
});

describe.runIf(requireTool('nats-server'))('authentication', () => {
  let c: TestCluster;
  let stranger: TestPki;
  let signingKey: SigningKey;
  /** A POST as the admin. */
  const post = async (path: string, body: unknown) =>
    JSON.parse((await c.rest(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).body) as Record<string, any>;
  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    signingKey = parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
    // As kubeadm: service account tokens signed with sa.key, Node,RBAC.
    c = await startTestCluster({ rest: true, serviceAccount: { signingKey }, authorizationModes: ['Node', 'RBAC'] });
    stranger = await TestPki.create();
    await post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'robot' } });
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

  describe('service account tokens', () => {
    const tokenFor = async (audiences: string[]) =>
      (await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences } })).status.token as string;
    const withToken = (token: string) => c.rest('/api/v1/namespaces/default/pods', { as: 'anonymous', headers: { authorization: `Bearer ${token}` } });

    it('knows a valid token: its service account may not list pods (403), but it is authenticated', async () => {
      const r = await withToken(await tokenFor([]));
      expect([r.status, JSON.parse(r.body)]).toEqual([
        403,
        FORBIDDEN('pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"', undefined, 'pods'),
      ]);
    });

    it.each([
      [
        'a tampered token (its payload edited, the signature kept)',
        async () => {
          const [h, p, sig] = (await tokenFor([])).split('.');
          const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
          return `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:default' })).toString('base64url')}.${sig}`;
        },
      ],
      [
        'an expired token',
        async () => {
          const sa = JSON.parse((await c.rest('/api/v1/namespaces/default/serviceaccounts/robot')).body) as { metadata: { uid: string } };
          const now = Math.floor(Date.now() / 1000) - 7200;
          const claims = boundClaims({
            issuer: DEFAULT_ISSUER,
            audiences: [DEFAULT_ISSUER],
            now,
            expirationSeconds: 3600,
            namespace: 'default',
            serviceAccount: { name: 'robot', uid: sa.metadata.uid },
            jti: 'j-1',
          });
          return signToken(signingKey, claims);
        },
      ],
      ['a token for another audience', () => tokenFor(['vault'])],
    ])('answers %s with 401 Unauthorized', async (_what, token) => {
      const r = await withToken(await token());
      expect([r.status, JSON.parse(r.body)]).toEqual([401, UNAUTHORIZED]);
    });
  });

  it('gives a restricted user (get pods in one namespace) 403 with the upstream message elsewhere', async () => {
    const G = 'rbac.authorization.k8s.io';
    await post('/api/v1/namespaces', { metadata: { name: 'dev' } });
    // The ServiceAccount controller's part (no controller-manager here): a pod needs its ServiceAccount.
    await post('/api/v1/namespaces/dev/serviceaccounts', { metadata: { name: 'default' } });
    await post('/api/v1/namespaces/dev/pods', { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await post(`/apis/${G}/v1/namespaces/dev/roles`, { metadata: { name: 'pod-getter' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    await post(`/apis/${G}/v1/namespaces/dev/rolebindings`, {
      metadata: { name: 'jane' },
      roleRef: { apiGroup: G, kind: 'Role', name: 'pod-getter' },
      subjects: [{ apiGroup: G, kind: 'User', name: 'jane' }],
    });
    const jane = await c.pki.client({ commonName: 'jane' });
    const as = async (path: string) => {
      const r = await c.rest(path, { as: jane });
      return [r.status, JSON.parse(r.body)] as const;
    };
    expect((await as('/api/v1/namespaces/dev/pods/web'))[0]).toBe(200);
    expect(await as('/api/v1/namespaces/dev/pods')).toEqual([403, FORBIDDEN('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "dev"', undefined, 'pods')]);
    expect(await as('/api/v1/namespaces/default/pods/web')).toEqual([
      403,
      FORBIDDEN('pods "web" is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "default"', 'web', 'pods'),
    ]);
    expect(await as('/api/v1/namespaces/dev/secrets/x')).toEqual([
      403,
      FORBIDDEN('secrets "x" is forbidden: User "jane" cannot get resource "secrets" in API group "" in the namespace "dev"', 'x', 'secrets'),
    ]);
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

  it('with --authentication-config allowing anonymous on the health paths only, answers 401 elsewhere', async () => {
    const health = await startTestCluster({ rest: true, anonymousAuth: { enabled: true, paths: new Set(['/healthz', '/livez', '/readyz', '/version']) } });
    try {
      const healthz = await health.rest('/healthz', { as: 'anonymous' });
      expect([healthz.status, healthz.body]).toEqual([200, 'ok']);
      expect((await health.rest('/version', { as: 'anonymous' })).status).toBe(200);
      for (const path of ['/api', '/api/v1/namespaces/default/pods', '/healthz/ping']) {
        const r = await health.rest(path, { as: 'anonymous' });
        expect([path, r.status, JSON.parse(r.body)]).toEqual([path, 401, UNAUTHORIZED]);
      }
    } finally {
      await health.cleanup();
    }
  }, 60_000);

  it('wants a client certificate from the cluster CA or a bearer token on the gRPC port (VerifyClientCertIfGiven)', async () => {
    const Ctor = apiserverProto().kubelab.apiserver.v1.ResourceService;
    const get = (creds: grpc.ChannelCredentials, token?: string) =>
      new Promise<string>((resolve) => {
        const client = new Ctor(c.grpcAddress, creds);
        const md = new grpc.Metadata();
        if (token) md.set('authorization', `Bearer ${token}`);
        client.Get({ resource: { group: '', version: 'v1', resource: 'namespaces' }, name: 'default' }, md, { deadline: Date.now() + 3_000 }, (err) => {
          client.close();
          resolve(err ? `${grpc.status[err.code]}: ${err.details}` : 'OK');
        });
      });
    const other = await stranger.client();
    const robot = (await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })).status.token as string;
    const serverOnly = () => grpc.credentials.createSsl(Buffer.from(c.pki.caPem));
    const admin = c.clientConfig.tls;
    const cases: [string, grpc.ChannelCredentials, string | undefined, string | RegExp][] = [
      ['neither a certificate nor a token', serverOnly(), undefined, 'UNAUTHENTICATED: Unauthorized'],
      ['a token nobody issued', serverOnly(), 'abcdef.0123456789abcdef', 'UNAUTHENTICATED: Unauthorized'],
      // Authenticated as the ServiceAccount: RBAC, not authentication, refuses it.
      [
        'a ServiceAccount token',
        serverOnly(),
        robot,
        'PERMISSION_DENIED: namespaces "default" is forbidden: User "system:serviceaccount:default:robot" cannot get resource "namespaces" in API group "" at the cluster scope',
      ],
      ["a certificate of another CA (the handshake's end)", grpc.credentials.createSsl(Buffer.from(c.pki.caPem), Buffer.from(other.key), Buffer.from(other.cert)), robot, /^UNAVAILABLE/],
      ['no TLS', grpc.credentials.createInsecure(), undefined, /^UNAVAILABLE/],
      ["the admin's certificate", grpc.credentials.createSsl(Buffer.from(admin.caPem), Buffer.from(admin.keyPem), Buffer.from(admin.certPem)), undefined, 'OK'],
    ];
    for (const [what, creds, token, want] of cases) {
      const got = await get(creds, token);
      if (typeof want === 'string') expect([what, got]).toEqual([what, want]);
      else expect([what, got]).toEqual([what, expect.stringMatching(want)]);
    }
  });
});
