// The TokenRequest API against a real apiserver: REST (JSON and the protobuf
// kubectl create token sends) and gRPC, and that what it issues is what the
// apiserver's own token authenticators accept, until the bound pod is gone.

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod, TokenRequest, TokenReview } from '@kubelab/api';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { reviewToken } from '../src/authentication/token.js';
import { api, call, gvr, startTestCluster, type TestCluster } from '../src/testing/index.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

let c: TestCluster;
let k: ReturnType<typeof api>;
beforeAll(async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  c = await startTestCluster({ rest: true, serviceAccount: { signingKey: parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) } });
  k = api(c.client());
  await k.create(gvr('serviceaccounts'), 'default', { metadata: { name: 'robot' } });
  await k.create(gvr('serviceaccounts'), 'default', { metadata: { name: 'default' } });
});
afterAll(async () => {
  await c?.cleanup();
});

async function post(path: string, body: Buffer | string, contentType = 'application/json'): Promise<{ code: number; body: Record<string, any> }> {
  const res = await c.rest(path, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  return { code: res.status, body: JSON.parse(res.body) as Record<string, any> };
}

describe('serviceaccounts/token', () => {
  it('issues a token for the apiserver audience, an hour by default, that authenticates as the service account', async () => {
    const before = Date.now();
    const res = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }));
    expect(res.code).toBe(201);
    const tr = res.body as TokenRequest;
    expect(tr).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'robot', namespace: 'default' },
      spec: { audiences: [ISSUER], expirationSeconds: 3600 },
    });
    const exp = Date.parse(tr.status!.expirationTimestamp);
    expect(exp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(exp).toBeLessThanOrEqual(Date.now() + 3600_000);
    const sa = await k.get(gvr('serviceaccounts'), 'default', 'robot');
    // A TokenReview over REST (as a webhook token authenticator posts it): the posted object with its status, not stored.
    const review = await post('/apis/authentication.k8s.io/v1/tokenreviews', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: tr.status!.token } }));
    expect(review).toEqual({
      code: 201,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        metadata: {},
        spec: { token: tr.status!.token },
        status: {
          authenticated: true,
          audiences: [ISSUER],
          user: {
            username: 'system:serviceaccount:default:robot',
            uid: sa.metadata.uid,
            groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
            extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^JTI=/)] },
          },
        },
      },
    });
    const tampered = `${tr.status!.token.slice(0, -4)}AAAA`;
    expect((await post('/apis/authentication.k8s.io/v1/tokenreviews', JSON.stringify({ spec: { token: tampered } }))).body.status).toEqual({
      user: {},
      error: expect.stringMatching(/^\[invalid bearer token, /),
    });
    expect((await post('/apis/authentication.k8s.io/v1/tokenreviews', JSON.stringify({ spec: {} }))).body).toMatchObject({ code: 400, message: 'token is required for TokenReview in authentication' });
  });

  it('answers the protobuf body of kubectl create token with upstream errors (a stale bound object UID)', async () => {
    await k.create(gvr('pods'), 'default', { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    // kubectl 1.32: create token default --duration 20m --audience foo --audience bar --bound-object-kind Pod --bound-object-name web --bound-object-uid abc
    const body = Buffer.from(readFileSync(new URL('../src/endpoints/testdata/kubectl-1.32-create-token.b64', import.meta.url), 'utf8'), 'base64');
    const res = await post('/api/v1/namespaces/default/serviceaccounts/default/token', body, 'application/vnd.kubernetes.protobuf');
    expect(res.code).toBe(409);
    expect(res.body.message).toBe(
      'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (abc) does not match the UID in record. The object might have been deleted and then recreated',
    );
  });

  it.each<[string, string, object, number, string]>([
    [
      'a lifetime under ten minutes',
      'robot',
      { expirationSeconds: 60 },
      422,
      'TokenRequest.authentication.k8s.io "robot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
    ['a missing service account', 'nobody', {}, 404, 'serviceaccounts "nobody" not found'],
    [
      'a bound object of another kind',
      'robot',
      { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'x' } },
      400,
      'cannot bind token for serviceaccount "robot" to object of type apps/v1, Kind=Deployment',
    ],
    [
      'a pod running as another service account',
      'robot',
      { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } },
      400,
      'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
    ],
  ])('refuses %s', async (_name, sa, spec, code, message) => {
    const res = await post(`/api/v1/namespaces/default/serviceaccounts/${sa}/token`, JSON.stringify({ spec }));
    expect({ code: res.code, message: res.body.message }).toEqual({ code, message });
  });

  it('issues pod-bound tokens over gRPC that stop authenticating once the pod is deleted', async () => {
    const pod = await k.create<Pod>(gvr('pods'), 'default', { metadata: { name: 'bound' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx' }] } });
    const body = { spec: { audiences: ['vault'], expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: pod.metadata.uid } } };
    const res = await call<{ json: Buffer }>(c.client(), 'CreateToken', { namespace: 'default', name: 'robot', tokenRequest: Buffer.from(JSON.stringify(body)) });
    const tr = JSON.parse(res.json.toString()) as TokenRequest;
    // Not the apiserver's audience: no extended lifetime.
    const claims = JSON.parse(Buffer.from(tr.status!.token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
    expect(claims['kubernetes.io']).toEqual({ namespace: 'default', serviceaccount: { name: 'robot', uid: expect.any(String) }, pod: { name: 'bound', uid: pod.metadata.uid } });
    expect(claims.exp - claims.iat).toBe(3607);
    // The review over gRPC (a component's clientset create, as the kubelet's webhook sends it).
    expect((await k.create<TokenReview>(gvr('tokenreviews', 'authentication.k8s.io'), '', { spec: { token: tr.status!.token, audiences: ['vault'] } })).status).toMatchObject({
      authenticated: true,
      audiences: ['vault'],
      user: { extra: { 'authentication.kubernetes.io/pod-name': ['bound'], 'authentication.kubernetes.io/pod-uid': [pod.metadata.uid] } },
    });
    await k.delete(gvr('pods'), 'default', 'bound', { gracePeriodSeconds: 0 });
    await expect
      .poll(async () => (await reviewToken({ token: tr.status!.token, audiences: ['vault'] }, c.apiserver.tokenAuthenticators)).error)
      .toBe('[invalid bearer token, service account token has been invalidated]');
  });

  it('extends kube-api-access tokens (3607 s, the apiserver audience, pod-bound) to a year with warnafter', async () => {
    const pod = await k.create<Pod>(gvr('pods'), 'default', { metadata: { name: 'longlived' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx' }] } });
    const res = await post(
      '/api/v1/namespaces/default/serviceaccounts/robot/token',
      JSON.stringify({ spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'longlived', uid: pod.metadata.uid } } }),
    );
    const claims = JSON.parse(Buffer.from((res.body as TokenRequest).status!.token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
    expect(claims.exp - claims.iat).toBe(365 * 24 * 3600);
    expect(claims['kubernetes.io'].warnafter - claims.iat).toBe(3607);
    expect(Date.parse((res.body as TokenRequest).status!.expirationTimestamp) / 1000 - claims.iat).toBe(3607);
  });

  it('counts a token request as one POST serviceaccounts/token in apiserver_request_total, not its lookups', async () => {
    const count = (text: string, labels: string) => Number(new RegExp(`^apiserver_request_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const core = (resource: string, subresource = '') => `group="",version="v1",resource="${resource}",subresource="${subresource}",scope="resource",component="apiserver"`;
    const token = `verb="POST",dry_run="",${core('serviceaccounts', 'token')},code="201"`;
    const refused = `verb="POST",dry_run="",${core('serviceaccounts', 'token')},code="422"`;
    const lookups = [`verb="GET",dry_run="",${core('serviceaccounts')},code="200"`, `verb="GET",dry_run="",${core('pods')},code="200"`];
    const pod = await k.create<Pod>(gvr('pods'), 'default', { metadata: { name: 'counted' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx' }] } });
    const before = (await c.rest('/metrics')).body;
    const bound = { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'counted', uid: pod.metadata.uid } } };
    expect((await post('/api/v1/namespaces/default/serviceaccounts/robot/token', JSON.stringify(bound))).code).toBe(201);
    await call(c.client(), 'CreateToken', { namespace: 'default', name: 'robot', tokenRequest: Buffer.from(JSON.stringify(bound)) });
    expect((await post('/api/v1/namespaces/default/serviceaccounts/robot/token', JSON.stringify({ spec: { expirationSeconds: 1 } }))).code).toBe(422);
    const after = (await c.rest('/metrics')).body;
    expect(count(after, token) - count(before, token)).toBe(2);
    expect(count(after, refused) - count(before, refused)).toBe(1);
    for (const l of lookups) expect(count(after, l)).toBe(count(before, l));
  });
});
