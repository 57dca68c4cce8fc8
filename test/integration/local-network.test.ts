// The local runner's pod network (issue 19): all nodes are processes on the
// host, so there are no packets between pods; a container's connect() and
// DNS query are translated at connect time through the node's socket-LB maps
// (every runtime's pod addresses, shared on NATS; kube-proxy's Service
// frontends). A busybox pod on node-2 reaches nginx on node-1 by the
// Service's name, as in compose; NetworkPolicy (the agent's policies.json)
// is checked there too, so the classic default-deny lab times out as the
// compose nodes' DROP chains make it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { LocalCluster } from './local-cluster.js';

const MANIFESTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeSelector: {kubernetes.io/hostname: node-1}
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  type: NodePort
  ports:
  - port: 80
    targetPort: 80
    nodePort: 31919
---
apiVersion: v1
kind: Pod
metadata:
  name: bb
spec:
  nodeSelector: {kubernetes.io/hostname: node-2}
  containers:
  - name: bb
    image: busybox:1.36
    command: [sleep, "3600"]
`;

const DENY = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny-ingress
spec:
  podSelector: {}
  policyTypes: [Ingress]
`;

const ALLOW_CLIENT = `apiVersion: v1
kind: Pod
metadata:
  name: client
  labels: {app: client}
spec:
  nodeSelector: {kubernetes.io/hostname: node-2}
  containers:
  - name: client
    image: busybox:1.36
    command: [sleep, "3600"]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: allow-client
spec:
  podSelector:
    matchLabels: {app: web}
  ingress:
  - from:
    - podSelector:
        matchLabels: {app: client}
    ports:
    - port: 80
`;

const ready = requireTool('nats-server') && requireTool('kubectl');

describe.runIf(ready)('the local runner reaches pods and Services across nodes (socket-LB)', { timeout: 120_000 }, () => {
  const cluster = new LocalCluster('kubelab-net-');
  const dir = cluster.dir;

  const kubectl = (args: string[], stdin?: string) => cluster.kubectl(args, stdin);

  beforeAll(async () => {
    // Three nodes of five units each on a shared machine: the deadline is generous, not the expectation.
    await cluster.up(['--nodes', '2', '--port-offset', '23400', '--time-scale=10'], 300_000);
    expect((await kubectl(['apply', '-f', '-'], MANIFESTS)).stdout).toBe('deployment.apps/web created\nservice/web created\npod/bb created\n');
    await waitFor(
      'web, bb and both coredns pods ready',
      async () => {
        const out = (await kubectl(['get', 'pods', '-A', '--no-headers'])).stdout;
        const rows = out.split('\n').filter((l) => /^(default\s+(web-|bb\s)|kube-system\s+coredns-)/.test(l));
        return rows.length === 4 && rows.every((l) => /\s1\/1\s+Running\s/.test(l)) ? true : undefined;
      },
      { timeoutMs: 90_000, everyMs: 1_000 },
    );
  }, 480_000);

  afterAll(async () => {
    await cluster.down();
  });

  it("each node's map holds every node's pods, and kube-proxy's the Service frontends", async () => {
    const webIp = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].status.podIP}'])).stdout;
    const clusterIp = (await kubectl(['get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    const maps = (file: string) => JSON.parse(readFileSync(join(dir, 'nodes', 'node-2', 'root', 'run', 'kubelab', 'socket-lb', file), 'utf8')) as Record<string, Record<string, unknown>>;
    // The Service's frontend appears with its Service, its backends once the endpoints follow (a pod reported ready
    // reaches kube-proxy through the EndpointSlice some time later): wait for the web pod and both CoreDNS backends.
    const backends = (frontend: string) => maps('services.json').frontends?.[frontend] as string[] | undefined;
    await waitFor(
      'node-2 knows the web pod and Service, and both CoreDNS backends',
      async () => (maps('pods.json')[webIp]?.['80/TCP'] && backends(`${clusterIp}:80/TCP`)?.length && backends('10.96.0.10:53/UDP')?.length === 2 ? true : undefined),
      { timeoutMs: 30_000 },
    );
    expect(maps('pods.json')[webIp]).toEqual({ '80/TCP': expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    expect(maps('services.json').frontends![`${clusterIp}:80/TCP`]).toEqual([`${webIp}:80`]);
    expect(maps('services.json').frontends!['10.96.0.10:53/UDP']).toHaveLength(2);
  });

  it('wget -qO- http://web from a pod on node-2 prints the page of nginx on node-1', async () => {
    const r = await waitFor(
      'wget through the Service',
      async () => {
        const x = await kubectl(['exec', 'bb', '--', 'wget', '-qO-', '-T', '5', 'http://web']);
        return x.code === 0 ? x : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(r.stdout).toContain('<h1>Welcome to nginx!</h1>');
  });

  it('nslookup answers the ClusterIP from CoreDNS', async () => {
    const clusterIp = (await kubectl(['get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    const r = await kubectl(['exec', 'bb', '--', 'nslookup', '-type=a', 'web.default.svc.cluster.local']);
    expect(r.stdout).toBe(`Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${clusterIp}\n\n`);
    const missing = await kubectl(['exec', 'bb', '--', 'nslookup', '-type=a', 'nosuch.default.svc.cluster.local']);
    expect(missing.stdout).toContain("** server can't find nosuch.default.svc.cluster.local: NXDOMAIN");
  });

  it("a NodePort answers on the host's 127.0.0.1", async () => {
    const res = await waitFor(
      'NodePort 31919 served',
      async () => {
        try {
          const r = await fetch('http://127.0.0.1:31919/', { method: 'HEAD' });
          return r;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('server')).toMatch(/^nginx\//);
  });

  it('a pod IP answers on its ports and refuses the others', async () => {
    const webIp = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].status.podIP}'])).stdout;
    expect((await kubectl(['exec', 'bb', '--', 'wget', '-qO-', '-T', '5', `http://${webIp}`])).stdout).toContain('<h1>Welcome to nginx!</h1>');
    const refused = await kubectl(['exec', 'bb', '--', 'wget', '-qO-', '-T', '5', `http://${webIp}:81`]);
    expect(refused.stderr).toContain(`wget: can't connect to remote host (${webIp}): Connection refused`);
  });

  it('the classic NetworkPolicy lab: default-deny ingress times out; allow app=client lets only that pod in', async () => {
    const policiesOf = (node: string) => {
      try {
        return JSON.parse(readFileSync(join(dir, 'nodes', node, 'root', 'run', 'kubelab', 'socket-lb', 'policies.json'), 'utf8')) as { ingress: Record<string, unknown[]> };
      } catch {
        return undefined;
      }
    };
    const webIp = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].status.podIP}'])).stdout;
    const wget = (pod: string) => kubectl(['exec', pod, '--', 'wget', '-qO-', '-T', '2', 'http://web']);

    expect((await kubectl(['apply', '-f', '-'], DENY)).stdout).toBe('networkpolicy.networking.k8s.io/default-deny-ingress created\n');
    // bb's node judges web's ingress: its agent writes every pod's allow lists.
    await waitFor('node-2 holds the default deny', () => (Array.isArray(policiesOf('node-2')?.ingress[webIp]) ? true : undefined), { timeoutMs: 30_000 });
    const denied = await wget('bb');
    expect(denied.stderr).toContain('wget: download timed out');
    expect(denied.code).not.toBe(0);

    expect((await kubectl(['apply', '-f', '-'], ALLOW_CLIENT)).stdout).toBe('pod/client created\nnetworkpolicy.networking.k8s.io/allow-client created\n');
    await waitFor('client running', async () => ((await kubectl(['get', 'pod', 'client', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running' ? true : undefined), {
      timeoutMs: 60_000,
      everyMs: 1_000,
    });
    const allowed = await waitFor(
      'the client gets the page',
      async () => {
        const x = await wget('client');
        return x.code === 0 ? x : undefined;
      },
      { timeoutMs: 30_000, everyMs: 1_000 },
    );
    expect(allowed.stdout).toContain('<h1>Welcome to nginx!</h1>');
    const still = await wget('bb');
    expect(still.stderr).toContain('wget: download timed out');
  });
});
