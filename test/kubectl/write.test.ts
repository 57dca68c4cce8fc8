// kubectl 1.32 (the real binary) changing the cluster through kubelab's
// apiserver: output text and the objects that end up stored.

import { createServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertKey } from '@kubelab/pki';
import { freePort, requireTool, PROBEDEMO_MANIFEST, waitFor } from '@kubelab/testing';
import { POLL, squash, startCluster, type Cluster } from './harness.js';
import { node, runningPod } from './fixtures.js';

const run = requireTool('kubectl');

type Obj = Record<string, any>;

const podYaml = (name: string, image: string, labels = 'app: web') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {${labels}}
spec:
  containers:
  - name: web
    image: ${image}
    ports:
    - containerPort: 80
`;

describe.skipIf(!run)('kubectl 1.32: changing the cluster', { timeout: 60_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
    await c.seed(node('node-1'));
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('create namespace, deployment --image --replicas, configmap --from-literal (protobuf bodies)', async () => {
    expect((await c.kubectl(['create', 'namespace', 'team-a'])).stdout).toBe('namespace/team-a created\n');
    expect((await c.kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=3'])).stdout).toBe('deployment.apps/web created\n');
    expect((await c.kubectl(['create', 'configmap', 'cfg', '--from-literal=a=1', '--from-literal=b=2'])).stdout).toBe('configmap/cfg created\n');
    expect((await c.get('namespaces', undefined, 'team-a'))?.metadata.name).toBe('team-a');
    const d = (await c.get('deployments', 'default', 'web', 'apps')) as Obj;
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(d.spec.template.spec.containers.map((x: Obj) => [x.name, x.image])).toEqual([['nginx', 'nginx']]);
    expect(((await c.get('configmaps', 'default', 'cfg')) as Obj).data).toEqual({ a: '1', b: '2' });
    const lines = squash((await c.kubectl(['get', 'deploy', '-o', 'wide'])).stdout);
    expect(lines[0]).toBe('NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR');
    expect(lines[1]).toMatch(/^web 0\/3 0 0 \d+s nginx nginx app=web$/);
    const cm = squash((await c.kubectl(['get', 'cm', 'cfg'])).stdout);
    expect(cm[1]).toMatch(/^cfg 2 \d+s$/);
  });

  it("expose deployment --port: a ClusterIP service selecting the deployment's pods", async () => {
    await c.kubectl(['create', 'deployment', 'api', '--image=nginx']);
    expect((await c.kubectl(['expose', 'deployment', 'api', '--port=80'])).stdout).toBe('service/api exposed\n');
    const svc = (await c.get('services', 'default', 'api')) as Obj;
    expect(svc.spec.selector).toEqual({ app: 'api' });
    expect(svc.spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(svc.spec.clusterIP).toMatch(/^10\.(9[6-9]|1[01][0-9])\.\d+\.\d+$/);
    const lines = squash((await c.kubectl(['get', 'svc', 'api', '-o', 'wide'])).stdout);
    expect(lines[1]).toBe(`api ClusterIP ${svc.spec.clusterIP} <none> 80/TCP ${lines[1]!.split(' ')[5]} app=api`);
  });

  it('scale through the scale subresource', async () => {
    await c.kubectl(['create', 'deployment', 'sc', '--image=nginx']);
    expect((await c.kubectl(['scale', 'deployment', 'sc', '--replicas=4'])).stdout).toBe('deployment.apps/sc scaled\n');
    expect(((await c.get('deployments', 'default', 'sc', 'apps')) as Obj).spec.replicas).toBe(4);
  });

  it('label and annotate (merge patches), then select by label', async () => {
    await c.kubectl(['create', 'deployment', 'lab', '--image=nginx']);
    expect((await c.kubectl(['label', 'deployment', 'lab', 'tier=front'])).stdout).toBe('deployment.apps/lab labeled\n');
    expect((await c.kubectl(['annotate', 'deployment', 'lab', 'owner=team-a'])).stdout).toBe('deployment.apps/lab annotated\n');
    const d = (await c.get('deployments', 'default', 'lab', 'apps')) as Obj;
    expect(d.metadata.labels).toEqual({ app: 'lab', tier: 'front' });
    // kubelab.io/traceparent: the Deployment's step of its pods' start trace (set by the apiserver on create).
    expect(d.metadata.annotations).toEqual({ owner: 'team-a', 'kubelab.io/traceparent': expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/) });
    const sel = squash((await c.kubectl(['get', 'deploy', '-l', 'tier=front', '--show-labels'])).stdout);
    expect(sel.slice(1).map((l) => `${l.split(' ')[0]} ${l.split(' ').at(-1)}`)).toEqual(['lab app=lab,tier=front']);
    expect((await c.kubectl(['label', 'deployment', 'lab', 'tier-'])).stdout).toBe('deployment.apps/lab unlabeled\n');
    expect(((await c.get('deployments', 'default', 'lab', 'apps')) as Obj).metadata.labels).toEqual({ app: 'lab' });
  });

  it('apply -f: created, unchanged, configured (strategic merge), and from stdin', async () => {
    const file = `${c.dir}/pod.yaml`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, podYaml('web1', 'nginx:1.25'));
    expect((await c.kubectl(['apply', '-f', file])).stdout).toBe('pod/web1 created\n');
    expect((await c.kubectl(['apply', '-f', file])).stdout).toBe('pod/web1 unchanged\n');
    writeFileSync(file, podYaml('web1', 'nginx:1.26', 'app: web, tier: front'));
    expect((await c.kubectl(['apply', '-f', file])).stdout).toBe('pod/web1 configured\n');
    const p = (await c.get('pods', 'default', 'web1')) as Obj;
    expect(p.spec.containers.map((x: Obj) => [x.name, x.image, x.ports])).toEqual([['web', 'nginx:1.26', [{ containerPort: 80, protocol: 'TCP' }]]]);
    expect(p.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(JSON.parse(p.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.containers[0].image).toBe('nginx:1.26');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: podYaml('web1', 'nginx:1.26', 'app: web, tier: front') })).stdout).toBe('pod/web1 unchanged\n');
    // Removing a field from the manifest prunes it from the live object.
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: podYaml('web1', 'nginx:1.26') })).stdout).toBe('pod/web1 configured\n');
    expect(((await c.get('pods', 'default', 'web1')) as Obj).metadata.labels).toEqual({ app: 'web' });
  });

  it('apply prunes list entries by merge key: containers, ports, env, volumes, tolerations', async () => {
    const deploy = (removed: boolean) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: pruned}
spec:
  selector: {matchLabels: {app: pruned}}
  template:
    metadata: {labels: {app: pruned}}
    spec:
      tolerations: [{key: k1, operator: Exists}${removed ? '' : ', {key: k2, operator: Exists}'}]
      volumes: [{name: v1, emptyDir: {}}${removed ? '' : ', {name: v2, emptyDir: {}}'}]
      containers:
      - name: a
        image: nginx:${removed ? '1.26' : '1.25'}
        ports: [{containerPort: 80, name: http}${removed ? '' : ', {containerPort: 443, name: https}'}]
        env: [{name: A, value: "1"}, ${removed ? '{name: C, value: "3"}' : '{name: B, value: "2"}'}]
        volumeMounts: [{name: v1, mountPath: /v1}${removed ? '' : ', {name: v2, mountPath: /v2}'}]
${removed ? '' : '      - {name: b, image: busybox}\n'}`;
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: deploy(false) })).stdout).toBe('deployment.apps/pruned created\n');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: deploy(true) })).stdout).toBe('deployment.apps/pruned configured\n');
    const spec = ((await c.get('deployments', 'default', 'pruned', 'apps')) as Obj).spec.template.spec;
    expect(spec.tolerations).toEqual([{ key: 'k1', operator: 'Exists' }]);
    expect(spec.volumes).toEqual([{ name: 'v1', emptyDir: {} }]);
    expect(spec.containers.map((x: Obj) => x.name)).toEqual(['a']);
    expect(spec.containers[0]).toMatchObject({
      image: 'nginx:1.26',
      ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }],
      env: [
        { name: 'A', value: '1' },
        { name: 'C', value: '3' },
      ],
      volumeMounts: [{ name: 'v1', mountPath: '/v1' }],
    });
  });

  it('patch --type json|merge|strategic; a wrong type or a failed test is refused and stores nothing', async () => {
    await c.kubectl(['create', 'deployment', 'pt', '--image=nginx']);
    expect((await c.kubectl(['patch', 'deployment', 'pt', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":3}]'])).stdout).toBe('deployment.apps/pt patched\n');
    expect((await c.kubectl(['patch', 'deployment', 'pt', '--type=merge', '-p', '{"metadata":{"labels":{"m":"1"}}}'])).stdout).toBe('deployment.apps/pt patched\n');
    const env = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"D","value":"4"}]}]}}}}';
    expect((await c.kubectl(['patch', 'deployment', 'pt', '-p', env])).stdout).toBe('deployment.apps/pt patched\n');
    const d = (await c.get('deployments', 'default', 'pt', 'apps')) as Obj;
    expect([d.spec.replicas, d.metadata.labels, d.spec.template.spec.containers.map((x: Obj) => [x.name, x.image, x.env])]).toEqual([
      3,
      { app: 'pt', m: '1' },
      [['nginx', 'nginx', [{ name: 'D', value: '4' }]]],
    ]);

    const wrong = await c.kubectl(['patch', 'deployment', 'pt', '--type=merge', '-p', '{"spec":{"replicas":"x"}}']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^The request is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32\n$/);
    const test = await c.kubectl(['patch', 'deployment', 'pt', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":9},{"op":"replace","path":"/spec/replicas","value":9}]']);
    expect(test.stderr).toBe('The request is invalid: the server rejected our request due to an error in our request\n');
    expect(((await c.get('deployments', 'default', 'pt', 'apps')) as Obj).spec.replicas).toBe(3);
  });

  it('apply --server-side creates and updates', async () => {
    const r = await c.kubectl(['apply', '--server-side', '-f', '-'], { stdin: podYaml('ssa', 'nginx:1.25') });
    expect(r.stdout).toBe('pod/ssa serverside-applied\n');
    await c.kubectl(['apply', '--server-side', '-f', '-'], { stdin: podYaml('ssa', 'nginx:1.27') });
    expect(((await c.get('pods', 'default', 'ssa')) as Obj).spec.containers[0].image).toBe('nginx:1.27');
  });

  it("the seed lab's probedemo pod, applied from stdin", async () => {
    const manifest = PROBEDEMO_MANIFEST;
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: manifest })).stdout).toBe('pod/probedemo created\n');
    const p = (await c.get('pods', 'default', 'probedemo')) as Obj;
    expect(p.spec.containers[0].livenessProbe).toMatchObject({ exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 });
    expect(squash((await c.kubectl(['get', 'pod', 'probedemo'])).stdout)[1]).toMatch(/^probedemo 0\/1 Pending 0 \d+s$/);
  });

  it.each([
    [
      'unknown field',
      'bad-unknown',
      `apiVersion: v1\nkind: Pod\nmetadata: {name: bad-unknown}\nspec:\n  containers: [{name: c, image: nginx, imagePolicy: Always}]\n`,
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePolicy"',
    ],
    [
      'wrong type',
      'bad-type',
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad-type}\nspec:\n  replicas: "two"\n  selector: {matchLabels: {app: x}}\n  template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c, image: nginx}]}}\n`,
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      'missing image',
      'bad-image',
      `apiVersion: v1\nkind: Pod\nmetadata: {name: bad-image}\nspec:\n  containers: [{name: c}]\n`,
      'The Pod "bad-image" is invalid: spec.containers[0].image: Required value',
    ],
    [
      'invalid name',
      'Bad_Name',
      `apiVersion: v1\nkind: Pod\nmetadata: {name: Bad_Name}\nspec:\n  containers: [{name: c, image: nginx}]\n`,
      `The Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
  ])("bad manifest (%s): kubectl's error and nothing stored", async (_what, name, manifest, error) => {
    const r = await c.kubectl(['apply', '-f', '-'], { stdin: manifest });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(error);
    const kind = manifest.includes('kind: Deployment') ? ['deployments', 'apps'] : ['pods', ''];
    expect(await c.get(kind[0]!, 'default', name, kind[1])).toBeUndefined();
  });

  it('errors from the server: NotFound and AlreadyExists', async () => {
    const nf = await c.kubectl(['get', 'pod', 'nope']);
    expect(nf.stderr.trim()).toBe('Error from server (NotFound): pods "nope" not found');
    await c.kubectl(['create', 'deployment', 'dup', '--image=nginx']);
    const ae = await c.kubectl(['create', 'deployment', 'dup', '--image=nginx']);
    expect(ae.stderr.trim()).toBe('error: failed to create deployment: deployments.apps "dup" already exists');
  });

  it('cordon and uncordon', async () => {
    expect((await c.kubectl(['cordon', 'node-1'])).stdout).toBe('node/node-1 cordoned\n');
    expect(((await c.get('nodes', undefined, 'node-1')) as Obj).spec.unschedulable).toBe(true);
    expect(squash((await c.kubectl(['get', 'nodes'])).stdout)[1]).toMatch(/^node-1 Ready,SchedulingDisabled control-plane \d+s v1\.32\.4-kubelab$/);
    expect((await c.kubectl(['uncordon', 'node-1'])).stdout).toBe('node/node-1 uncordoned\n');
    expect(((await c.get('nodes', undefined, 'node-1')) as Obj).spec.unschedulable).toBeUndefined();
  });

  it('delete --grace-period=0 --force removes the pod at once', async () => {
    await c.seed(runningPod('doomed'));
    const r = await c.kubectl(['delete', 'pod', 'doomed', '--grace-period=0', '--force']);
    expect(r.stdout).toBe('pod "doomed" force deleted\n');
    expect(r.stderr).toContain('Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated.');
    expect(await c.get('pods', 'default', 'doomed')).toBeUndefined();
  });

  it('delete of a running pod is graceful: Terminating, and kubectl waits for DELETED', async () => {
    await c.seed(runningPod('graceful'));
    const del = c.spawnKubectl(['delete', 'pod', 'graceful']);
    await waitFor("kubectl's 'deleted' line", () => del.output().includes('pod "graceful" deleted'), POLL);
    const p = (await c.get('pods', 'default', 'graceful')) as Obj;
    expect(p.metadata.deletionTimestamp).toBeTruthy();
    expect(squash((await c.kubectl(['get', 'pod', 'graceful'])).stdout)[1]).toMatch(/^graceful 1\/1 Terminating 0 \d+s$/);
    expect(del.child.exitCode).toBeNull();
    // The kubelet's final delete, once the containers have stopped.
    await c.api.registry.store('', 'v1', 'pods')!.delete('default', 'graceful', { gracePeriodSeconds: 0 }, {});
    const code = await waitFor('kubectl delete to exit', () => del.child.exitCode !== null && { code: del.child.exitCode }, POLL);
    expect(code).toEqual({ code: 0 });
  });

  it('rollout restart stamps the pod template', async () => {
    await c.kubectl(['create', 'deployment', 'rr', '--image=nginx']);
    expect((await c.kubectl(['rollout', 'restart', 'deployment', 'rr'])).stdout).toBe('deployment.apps/rr restarted\n');
    const d = (await c.get('deployments', 'default', 'rr', 'apps')) as Obj;
    expect(d.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('wait --for=condition=Ready returns once the kubelet reports Ready', async () => {
    const pending = runningPod('waiter');
    (pending as Obj).status.conditions = [{ type: 'Ready', status: 'False' }];
    await c.seed(pending);
    const w = c.spawnKubectl(['wait', '--for=condition=Ready', 'pod/waiter', '--timeout=20s']);
    await c.api.registry.store('', 'v1', 'pods')!.patch('default', 'waiter', 'application/strategic-merge-patch+json', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, {}, 'status');
    await waitFor('kubectl wait to exit', () => w.child.exitCode !== null, POLL);
    expect(w.output()).toBe('pod/waiter condition met\n');
    expect(w.child.exitCode).toBe(0);
  });

  it('get pod NAME -w: the first change after the initial row is shown', async () => {
    await c.seed(runningPod('watched'));
    const w = c.spawnKubectl(['get', 'pod', 'watched', '-w']);
    try {
      await waitFor('the watched row', () => w.output().includes('watched'), POLL);
      await c.api.registry.store('', 'v1', 'pods')!.patch('default', 'watched', 'application/merge-patch+json', { metadata: { labels: { x: 'y' } } }, {});
      await waitFor('the row of the change', () => squash(w.output()).length >= 3, POLL);
      expect(squash(w.output()).map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(['NAME READY STATUS', 'watched 1/1 Running', 'watched 1/1 Running']);
    } finally {
      w.child.kill();
    }
  });

  it("drain --ignore-daemonsets evicts the node's pods and cordons it", async () => {
    await c.seed(node('node-2'), runningPod('on-two', { node: 'node-2' }));
    const d = c.spawnKubectl(['drain', 'node-2', '--ignore-daemonsets', '--force', '--timeout=20s']);
    // The eviction is a graceful delete; play the kubelet that finishes it.
    const pods = c.api.registry.store('', 'v1', 'pods')!;
    await waitFor('on-two terminating', async () => ((await c.get('pods', 'default', 'on-two')) as Obj | undefined)?.metadata.deletionTimestamp, POLL);
    await pods.delete('default', 'on-two', { gracePeriodSeconds: 0 }, {});
    await waitFor('kubectl drain to exit', () => d.child.exitCode !== null, POLL);
    expect(d.output()).toContain('node/node-2 cordoned\n');
    expect(d.output()).toContain('evicting pod default/on-two\n');
    expect(d.output()).toContain('pod/on-two evicted\n');
    expect(d.output()).toContain('node/node-2 drained\n');
    expect(((await c.get('nodes', undefined, 'node-2')) as Obj).spec.unschedulable).toBe(true);
  });

  it('diff shows a change through a dry-run patch and persists nothing', async () => {
    await c.kubectl(['apply', '-f', '-'], { stdin: podYaml('diffed', 'nginx:1.25') });
    const r = await c.kubectl(['diff', '-f', '-'], { stdin: podYaml('diffed', 'nginx:1.26') });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\n-  - image: nginx:1\.25\n\+  - image: nginx:1\.26\n/);
    expect(((await c.get('pods', 'default', 'diffed')) as Obj).spec.containers[0].image).toBe('nginx:1.25');
  });

  it('describe deployment', async () => {
    await c.kubectl(['create', 'deployment', 'desc', '--image=nginx:1.27', '--replicas=2']);
    const out = (await c.kubectl(['describe', 'deployment', 'desc'])).stdout;
    expect(out).toMatch(/^Name:\s+desc\nNamespace:\s+default\n/);
    expect(out).toMatch(/\nSelector:\s+app=desc\n/);
    expect(out).toMatch(/\nReplicas:\s+2 desired \| 0 updated \| 0 total \| 0 available \| 0 unavailable\n/);
    expect(out).toMatch(/\nStrategyType:\s+RollingUpdate\n/);
    expect(out).toMatch(/\n  Containers:\n   nginx:\n    Image:\s+nginx:1\.27\n/);
  });

  it('rollout status follows the deployment until its status says rolled out', async () => {
    await c.kubectl(['create', 'deployment', 'ro', '--image=nginx']);
    const w = c.spawnKubectl(['rollout', 'status', 'deployment/ro', '--timeout=20s']);
    await waitFor("rollout status's waiting line", () => w.output().includes('Waiting for deployment spec update to be observed...'), POLL);
    // What the deployment controller would write once the new pod is available.
    await c.api.registry
      .store('apps', 'v1', 'deployments')!
      .patch('default', 'ro', 'application/merge-patch+json', { status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 } }, {}, 'status');
    await waitFor('kubectl rollout status to exit', () => w.child.exitCode !== null, POLL);
    expect(w.output().trim().split('\n').at(-1)).toBe('deployment "ro" successfully rolled out');
    expect(w.child.exitCode).toBe(0);
  });

  it('logs from a node whose kubelet is down: the dial error, as upstream words it', async () => {
    const port = await freePort(); // nothing listens there
    await c.seed(node('node-down', { kubeletPort: port }), runningPod('stranded', { node: 'node-down' }));
    const r = await c.kubectl(['logs', 'stranded']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error from server: Get "https://127.0.0.1:${port}/containerLogs/default/stranded/stranded": dial tcp 127.0.0.1:${port}: connect: connection refused\n`);
  });

  it("logs from a kubelet that refuses the apiserver: its 403 as upstream's apiserver passes it on", async () => {
    // A kubelet whose authorizer does not let kube-apiserver-kubelet-client read nodes/proxy.
    const serving = await selfSignedCertKey('node-locked');
    const kubelet = createServer({ cert: serving.cert, key: serving.key }, (_req, res) => {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy)');
    });
    const port = await freePort();
    await new Promise<void>((r) => kubelet.listen(port, '127.0.0.1', r));
    try {
      await c.seed(node('node-locked', { kubeletPort: port }), runningPod('locked', { node: 'node-locked' }));
      const r = await c.kubectl(['logs', 'locked']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('Error from server (Forbidden): Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy) ( pods/log locked)\n');
    } finally {
      kubelet.closeAllConnections();
      await new Promise((r) => kubelet.close(r));
    }
  });

  it('delete a deployment and a namespace', async () => {
    await c.kubectl(['create', 'deployment', 'gone', '--image=nginx']);
    expect((await c.kubectl(['delete', 'deployment', 'gone'])).stdout).toBe('deployment.apps "gone" deleted\n');
    expect(await c.get('deployments', 'default', 'gone', 'apps')).toBeUndefined();
  });
});
