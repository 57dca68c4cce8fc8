// kubectl auth can-i / whoami and impersonation against the real apiserver
// with `--authorization-mode=Node,RBAC` and upstream's bootstrap policy:
// jane gets a Role to read pods in default, and a ServiceAccount speaks for
// itself with a token from the TokenRequest API. The harness's kubeconfig
// holds a client certificate of system:masters, who may impersonate anyone
// (`kubectl --as`).

import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '@kubelab/api';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { squash, startCluster, type Cluster } from './harness.js';

const K127 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const K133 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

let c: Cluster;
let saToken = '';
beforeAll(async () => {
  // kubeadm's sa.key, made for this run: `kubectl create token` needs an issuer.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
  c = await startCluster({ authorizationModes: ['Node', 'RBAC'], serviceAccount: { signingKey } });
  const ok = async (args: string[]) => {
    const r = await c.kubectl(args);
    expect(r.stderr).toBe('');
    return r.stdout;
  };
  await ok(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
  await ok(['create', 'rolebinding', 'jane-reads-pods', '--role=pod-reader', '--user=jane']);
  await ok(['create', 'serviceaccount', 'robot']);
  // Not `view`: its rules are aggregated by the controller-manager, which this test does not run.
  await ok(['create', 'clusterrole', 'reader', '--verb=get,list,watch', '--resource=pods,deployments.apps']);
  await ok(['create', 'rolebinding', 'robot-reads', '--clusterrole=reader', '--serviceaccount=default:robot']);
  saToken = (await ok(['create', 'token', 'robot'])).trim();
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

/** kubectl as the ServiceAccount: its token and the cluster CA, no client certificate (x509 would win over the token). */
function asRobot(): string[] {
  const ca = join(c.dir, 'ca.crt');
  writeFileSync(ca, c.pki.admin.caPem);
  writeFileSync(join(c.dir, 'empty-kubeconfig'), 'apiVersion: v1\nkind: Config\n');
  return [`--kubeconfig=${join(c.dir, 'empty-kubeconfig')}`, `--server=https://127.0.0.1:${c.port}`, `--certificate-authority=${ca}`, `--token=${saToken}`];
}

describe('kubectl auth can-i', () => {
  it('answers yes for the superuser and yes/no for an impersonated user', async () => {
    expect(await c.kubectl(['auth', 'can-i', 'create', 'pods'])).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(await c.kubectl(['--as=jane', 'auth', 'can-i', 'list', 'pods'])).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(await c.kubectl(['--as=jane', 'auth', 'can-i', 'create', 'pods'])).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(await c.kubectl(['--as=jane', 'auth', 'can-i', 'list', 'pods', '-n', 'kube-system'])).toMatchObject({ stdout: 'no\n', code: 1 });
  });

  it('--list prints the rules of the user in the namespace', async () => {
    const r = await c.kubectl(['--as=jane', 'auth', 'can-i', '--list']);
    expect(r.code).toBe(0);
    expect(squash(r.stdout)).toEqual([
      'Resources Non-Resource URLs Resource Names Verbs',
      'selfsubjectreviews.authentication.k8s.io [] [] [create]',
      'selfsubjectaccessreviews.authorization.k8s.io [] [] [create]',
      'selfsubjectrulesreviews.authorization.k8s.io [] [] [create]',
      'pods [] [] [get list watch]',
      '[/api/*] [] [get]',
      '[/api] [] [get]',
      '[/apis/*] [] [get]',
      '[/apis] [] [get]',
      // system:discovery and system:public-info-viewer both grant these, and kubectl lists each rule, as on a kubeadm cluster.
      '[/healthz] [] [get]',
      '[/healthz] [] [get]',
      '[/livez] [] [get]',
      '[/livez] [] [get]',
      '[/openapi/*] [] [get]',
      '[/openapi] [] [get]',
      '[/readyz] [] [get]',
      '[/readyz] [] [get]',
      '[/version/] [] [get]',
      '[/version/] [] [get]',
      '[/version] [] [get]',
      '[/version] [] [get]',
    ]);
  });

  it('a node sees that its rules cannot be listed', async () => {
    const r = await c.kubectl(['--as=system:node:node-1', '--as-group=system:nodes', 'auth', 'can-i', '--list']);
    expect(r.stdout + r.stderr).toMatch(/node authorizer does not support user rule resolution/);
  });
});

describe('kubectl auth whoami', () => {
  it.each([
    ['1.32 (v1)', undefined],
    ['1.27 (v1beta1)', K127],
    ['1.33 (v1)', K133],
  ])('kubectl %s prints the user and groups', async (_v, bin) => {
    const r = await c.kubectl(['--as=jane', '--as-group=dev', 'auth', 'whoami'], bin ? { bin } : {});
    expect(r.stderr).toBe('');
    expect(squash(r.stdout)).toEqual(['ATTRIBUTE VALUE', 'Username jane', 'Groups [dev system:authenticated]']);
  });

  it('without impersonation it is the user its client certificate names', async () => {
    const r = await c.kubectl(['auth', 'whoami']);
    expect(squash(r.stdout)).toEqual(['ATTRIBUTE VALUE', 'Username kubelab-test-admin', 'Groups [system:masters system:authenticated]']);
  });
});

describe('a ServiceAccount with a token from the TokenRequest API', () => {
  it('auth whoami names the ServiceAccount and its groups', async () => {
    const r = await c.kubectl([...asRobot(), 'auth', 'whoami']);
    expect(r.stderr).toBe('');
    const lines = squash(r.stdout);
    expect(lines.slice(0, 2)).toEqual(['ATTRIBUTE VALUE', 'Username system:serviceaccount:default:robot']);
    expect(lines).toContain('Groups [system:serviceaccounts system:serviceaccounts:default system:authenticated]');
  });

  it('auth can-i --list shows what its RoleBinding grants it', async () => {
    const r = await c.kubectl([...asRobot(), 'auth', 'can-i', '--list']);
    expect(r.stderr).toBe('');
    const lines = squash(r.stdout);
    expect(lines).toContain('pods [] [] [get list watch]');
    expect(lines).toContain('deployments.apps [] [] [get list watch]');
    expect(lines.some((l) => l.startsWith('secrets '))).toBe(false);
    expect(await c.kubectl([...asRobot(), 'auth', 'can-i', 'delete', 'pods'])).toMatchObject({ stdout: 'no\n', code: 1 });
  });

  it('a tampered token is 401 and kubectl says so', async () => {
    const args = asRobot();
    args[args.length - 1] = `--token=${saToken.slice(0, -4)}AAAA`;
    const r = await c.kubectl([...args, 'get', 'pods']);
    expect(r.stderr.trim()).toBe('error: You must be logged in to the server (Unauthorized)');
  });
});

describe('ServiceAccount admission', () => {
  it("refuses a pod whose ServiceAccount does not exist, with upstream's text", async () => {
    const r = await c.kubectl(['run', 'lost', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}']);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): pods "lost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
    expect((await c.kubectl(['get', 'pod', 'lost', '--ignore-not-found'])).stdout).toBe('');
  });

  it("answers a pod for a missing namespace with the namespace's 404 first (NamespaceLifecycle runs before it, as upstream)", async () => {
    const r = await c.kubectl(['run', 'x', '--image=nginx', '-n', 'nope']);
    expect(r.stderr.trim()).toBe('Error from server (NotFound): namespaces "nope" not found');
  });

  it('admits it once the ServiceAccount is there, with its token volume', async () => {
    expect((await c.kubectl(['create', 'serviceaccount', 'ghost'])).stdout).toBe('serviceaccount/ghost created\n');
    expect((await c.kubectl(['run', 'lost', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"ghost"}}'])).stdout).toBe('pod/lost created\n');
    const r = await c.kubectl(['get', 'pod', 'lost', '-o', 'jsonpath={.spec.serviceAccountName} {.spec.volumes[0].name}']);
    expect(r.stdout).toMatch(/^ghost kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    // An unscheduled pod goes at once; the next tests expect none in default.
    expect((await c.kubectl(['delete', 'pod', 'lost'])).stdout).toBe('pod "lost" deleted\n');
    await c.kubectl(['delete', 'serviceaccount', 'ghost']);
  });
});

describe('a restricted user', () => {
  it('gets 403 with the upstream message outside what it may do', async () => {
    const r = await c.kubectl(['--as=jane', 'get', 'pods', '-n', 'kube-system']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "kube-system"');
    expect(await c.kubectl(['--as=jane', 'get', 'pods'])).toMatchObject({ code: 0, stderr: 'No resources found in default namespace.\n' });
  });

  it('may not impersonate anyone', async () => {
    expect(await c.kubectl(['--as=jane', 'auth', 'can-i', 'impersonate', 'users'])).toMatchObject({ stdout: 'no\n', code: 1 });
  });

  it('reads the health endpoints (system:public-info-viewer), not /metrics', async () => {
    expect(await c.kubectl(['--as=jane', 'get', '--raw', '/healthz'])).toMatchObject({ stdout: 'ok', code: 0 });
    const r = await c.kubectl(['--as=jane', 'get', '--raw', '/metrics']);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): forbidden: User "jane" cannot get path "/metrics"');
  });
});

describe('a kubelet (system:node:node-1)', () => {
  const asNode = (n: string) => [`--as=system:node:${n}`, '--as-group=system:nodes'];
  beforeAll(async () => {
    const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {} });
    // With no controller-manager here, the ServiceAccount controller's `default` is seeded: a pod needs its ServiceAccount.
    await c.seed(node('node-1'), node('node-2'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    for (const s of ['used', 'unused']) expect((await c.kubectl(['create', 'secret', 'generic', s, '--from-literal=k=v'])).code).toBe(0);
    const web: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx', env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'used', key: 'k' } } }] }] },
    };
    await c.seed(web);
    // A pod of node-2's, which node-1 may neither delete, evict nor get tokens for.
    await c.seed({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'other', namespace: 'default' }, spec: { nodeName: 'node-2', containers: [{ name: 'c', image: 'nginx' }] } } as Pod);
  });

  it('reads a secret its pod uses, not another', async () => {
    expect(await c.kubectl([...asNode('node-1'), 'get', 'secret', 'used', '-o', 'name'])).toMatchObject({ stdout: 'secret/used\n', code: 0 });
    const r = await c.kubectl([...asNode('node-1'), 'get', 'secret', 'unused']);
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): secrets "unused" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node-1\' and this object',
    );
    const other = await c.kubectl([...asNode('node-2'), 'get', 'secret', 'used']);
    expect(other.stderr).toMatch(/no relationship found between node 'node-2' and this object/);
  });

  it("reads its own Node and Lease, not node-2's", async () => {
    expect(await c.kubectl([...asNode('node-1'), 'get', 'node', 'node-1', '-o', 'name'])).toMatchObject({ stdout: 'node/node-1\n', code: 0 });
    expect((await c.kubectl([...asNode('node-1'), 'get', 'node', 'node-2'])).stderr).toMatch(
      /nodes "node-2" is forbidden: User "system:node:node-1" cannot get resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object/,
    );
    expect((await c.kubectl([...asNode('node-1'), 'get', 'lease', 'node-2', '-n', 'kube-node-lease'])).stderr).toMatch(
      /leases.coordination.k8s.io "node-2" is forbidden: .*: can only access node lease with the same name as the requesting node/,
    );
  });

  it('is refused by NodeRestriction when it writes node-2', async () => {
    // kubectl patch reads first (refused above); replace writes straight away, and the Node authorizer lets every node write Nodes.
    const manifest = (n: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { x: 'y' } }, spec: {} });
    const r = await c.kubectl([...asNode('node-1'), 'replace', '-f', '-'], { stdin: manifest('node-2') });
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): error when replacing "STDIN": nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"');
    // Its own Node as read (the not-ready taint TaintNodesByCondition added stays: a kubelet may not change its taints).
    const own = JSON.parse((await c.kubectl([...asNode('node-1'), 'get', 'node', 'node-1', '-o', 'json'])).stdout) as { metadata: { labels?: Record<string, string> } };
    own.metadata.labels = { ...own.metadata.labels, x: 'y' };
    expect(await c.kubectl([...asNode('node-1'), 'replace', '-f', '-'], { stdin: JSON.stringify(own) })).toMatchObject({ stdout: 'node/node-1 replaced\n', code: 0 });
  });

  it("may not delete or evict node-2's pod (NodeRestriction runs on deletes and evictions)", async () => {
    const del = await c.kubectl([...asNode('node-1'), 'delete', 'pod', 'other', '--wait=false']);
    expect(del.stderr.trim()).toBe('Error from server (Forbidden): pods "other" is forbidden: node "node-1" can only delete pods with spec.nodeName set to itself');
    const eviction = JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other', namespace: 'default' } });
    const evict = await c.kubectl([...asNode('node-1'), 'create', '--raw', '/api/v1/namespaces/default/pods/other/eviction', '-f', '-'], { stdin: eviction });
    expect(evict.stderr).toContain('pods "other" is forbidden: node node-1 can only evict pods with spec.nodeName set to itself');
    // Still there, not even Terminating.
    const pod = JSON.parse((await c.kubectl(['get', 'pod', 'other', '-o', 'json'])).stdout) as Pod;
    expect(pod.metadata.deletionTimestamp).toBeUndefined();
  });

  it('gets tokens only bound to its own pods', async () => {
    const unbound = await c.kubectl([...asNode('node-1'), 'create', 'token', 'default']);
    expect(unbound.stderr).toMatch(/serviceaccounts "default" is forbidden: node requested token not bound to a pod/);
    const uid = (await c.kubectl(['get', 'pod', 'other', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const bound = await c.kubectl([...asNode('node-1'), 'create', 'token', 'default', '--bound-object-kind=Pod', '--bound-object-name=other', `--bound-object-uid=${uid}`]);
    expect(bound.stderr).toMatch(/serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node/);
    expect(bound.stdout).toBe('');
  });
});

describe('service account issuer discovery', () => {
  it('serves the discovery document and the key set that verifies the tokens', async () => {
    const conf = JSON.parse((await c.kubectl(['get', '--raw', '/.well-known/openid-configuration'])).stdout) as Record<string, unknown>;
    expect(conf).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: `https://127.0.0.1:${c.port}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    const jwks = JSON.parse((await c.kubectl(['get', '--raw', '/openid/v1/jwks'])).stdout) as { keys: Array<Record<string, string>> };
    const header = JSON.parse(Buffer.from(saToken.split('.')[0]!, 'base64url').toString()) as { kid: string };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', kid: header.kid, alg: 'RS256', e: 'AQAB' });
  });

  it('is for authenticated users (system:service-account-issuer-discovery), not anonymous ones', async () => {
    const r = await c.kubectl([...asRobot(), 'get', '--raw', '/openid/v1/jwks']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('keys');
    const anon = await c.kubectl(['--as=system:anonymous', '--as-group=system:unauthenticated', 'get', '--raw', '/.well-known/openid-configuration']);
    expect(anon.stderr).toMatch(/Forbidden|forbidden/);
  });
});
