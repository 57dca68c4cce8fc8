// The proxy subresources with the real kubectl 1.32 against a real kubelet
// and runtime (node-1, in-process on loopback): `kubectl get --raw` through
// nodes/proxy to the kubelet's port, through pods/proxy to nginx in a pod,
// and through services/proxy to one ready endpoint — pods reached through
// the kubelet's port-forward, as kubelab's runners do; RBAC decides who may.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, startCluster, type Cluster } from './harness.js';
import { startNode } from './node.js';

const WEB = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  nodeName: node-1
  containers:
  - name: nginx
    image: nginx:1.27
    ports:
    - containerPort: 80
`;

/** A Service without a selector and its Endpoints written by hand (no endpoints controller runs here). */
const service = (ip: string) => `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - name: http
    port: 80
---
apiVersion: v1
kind: Endpoints
metadata:
  name: web
subsets:
- addresses:
  - ip: ${ip}
    nodeName: node-1
    targetRef: {kind: Pod, namespace: default, name: web}
  ports:
  - name: http
    port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: nobody
spec:
  ports:
  - port: 80
`;

describe.skipIf(!requireTool('kubectl'))('kubectl 1.32: nodes/proxy, pods/proxy, services/proxy', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    // Pods are reached through node-1's kubelet (kubelab's runners: the apiserver is off the pod network).
    c = await startCluster({ authorizationModes: ['Node', 'RBAC'], podNetwork: 'kubelet-tunnel' });
    node = await startNode(c, 'proxy');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: WEB })).stdout).toBe('pod/web created\n');
    let ip = '';
    await waitFor(
      'web Running with an IP',
      async () => {
        const r = await c.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase} {.status.podIP}']);
        [, ip = ''] = r.stdout.split(' ');
        return r.stdout.startsWith('Running ') && ip !== '';
      },
      { ...POLL, timeoutMs: 30_000 },
    );
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: service(ip) })).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('nodes/proxy: the kubelet answers healthz, pods and metrics', async () => {
    expect(await c.kubectl(['get', '--raw', '/api/v1/nodes/node-1/proxy/healthz'])).toEqual({ stdout: 'ok', stderr: '', code: 0 });
    const pods = JSON.parse((await c.kubectl(['get', '--raw', '/api/v1/nodes/node-1/proxy/pods'])).stdout) as { kind: string; items: { metadata: { name: string } }[] };
    expect(pods.kind).toBe('PodList');
    expect(pods.items.map((p) => p.metadata.name)).toContain('web');
    expect((await c.kubectl(['get', '--raw', '/api/v1/nodes/node-1/proxy/metrics'])).stdout).toMatch(/^# (HELP|TYPE) /m);
  });

  it("pods/proxy: nginx's page through web:80 and the first declared port", async () => {
    const page = await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/web:80/proxy/']);
    expect(page.code).toBe(0);
    expect(page.stdout).toContain('<title>Welcome to nginx!</title>');
    expect((await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/web/proxy/'])).stdout).toContain('<title>Welcome to nginx!</title>');
  });

  it('services/proxy: one ready endpoint; a Service without endpoints is a 503', async () => {
    expect((await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/'])).stdout).toContain('<title>Welcome to nginx!</title>');
    const none = await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/nobody:80/proxy/']);
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe('Error from server (ServiceUnavailable): no endpoints available for service "nobody"');
  });

  it('nothing listening on the port: 503 error trying to reach service', async () => {
    const r = await c.kubectl(['get', '--raw', '/api/v1/namespaces/default/pods/web:81/proxy/']);
    expect(r.code).toBe(1);
    // The runtime's port-forward failure, as containerd words it, carried back through the kubelet.
    expect(r.stderr.trim()).toMatch(
      /^Error from server \(ServiceUnavailable\): error trying to reach service: error forwarding port 81 to pod [0-9a-f]{64}, uid : failed to execute portforward in network namespace "[^"]+": failed to connect to localhost:81 inside namespace "[0-9a-f]{64}", IPv4: dial tcp4 127\.0\.0\.1:81: connect: connection refused/,
    );
  });

  it('RBAC: nodes/proxy get is needed (403 in upstream words)', async () => {
    const r = await c.kubectl(['get', '--raw', '/api/v1/nodes/node-1/proxy/healthz', '--as=jane']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): nodes "node-1" is forbidden: User "jane" cannot get resource "nodes/proxy" in API group "" at the cluster scope');
  });
});
