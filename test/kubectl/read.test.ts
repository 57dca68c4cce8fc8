// kubectl 1.32 (the real binary, via the SDK dispatcher) against kubelab's
// apiserver: the read-side verbs, checked on their output text.

import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertKey } from '@kubelab/pki';
import { freePort, requireTool, waitFor } from '@kubelab/testing';
import { POLL, squash, startCluster, type Cluster } from './harness.js';
import { event, kubeProxyConfigMap, kubeProxyDaemonSet, lease, node, runningPod } from './fixtures.js';

const run = requireTool('kubectl');

describe.skipIf(!run)('kubectl 1.32: reading the cluster', { timeout: 60_000 }, () => {
  let c: Cluster;
  let kubelet: Server;
  const kubeletRequests: string[] = [];

  beforeAll(async () => {
    c = await startCluster();
    // A kubelet as kubeadm runs it: a self-signed serving certificate, client certificates from the cluster CA.
    const serving = await selfSignedCertKey('node-1');
    kubelet = createServer({ cert: serving.cert, key: serving.key, ca: c.pki.pki.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      kubeletRequests.push(`${(req.socket as TLSSocket).getPeerCertificate().subject.CN} ${req.url!}`);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('nginx: ready\nGET / 200\n');
    });
    const kubeletPort = await freePort();
    await new Promise<void>((r) => kubelet.listen(kubeletPort, '127.0.0.1', r));
    await c.seed(node('node-1', { kubeletPort }), lease('node-1'), kubeProxyConfigMap, kubeProxyDaemonSet(1));
    await c.seed(runningPod('nginx', { restarts: 3 }), runningPod('coredns', { namespace: 'kube-system', ip: '10.244.0.2', labels: { 'k8s-app': 'kube-dns' } }));
    const pod = (await c.get('pods', 'default', 'nginx'))!;
    await c.seed(
      event('nginx.1', pod, { reason: 'Scheduled', message: 'Successfully assigned default/nginx to node-1', component: 'default-scheduler', lastMsAgo: 30 * 60_000 }),
      event('nginx.2', pod, { reason: 'Pulled', message: 'Container image "nginx:1.27" already present on machine', component: 'kubelet', lastMsAgo: 20 * 60_000 }),
      event('nginx.3', pod, { reason: 'BackOff', message: 'Back-off restarting failed container nginx in pod nginx_default', type: 'Warning', component: 'kubelet', lastMsAgo: 10 * 60_000, count: 3 }),
    );
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
    kubelet?.close();
  });

  it('version: the server reports 1.32, so the dispatcher runs the 1.32 client', async () => {
    const r = await c.kubectl(['version']);
    expect(r.stdout).toContain('Server Version: v1.32.4-kubelab');
    expect(r.stderr).toBe('');
  });

  it('cluster-info', async () => {
    const r = await c.kubectl(['cluster-info']);
    expect(r.stdout).toContain(`Kubernetes control plane is running at https://127.0.0.1:${c.port}`);
  });

  it('api-resources lists names, short names, groups and kinds', async () => {
    const lines = squash((await c.kubectl(['api-resources'])).stdout);
    expect(lines[0]).toBe('NAME SHORTNAMES APIVERSION NAMESPACED KIND');
    expect(lines).toContain('pods po v1 true Pod');
    expect(lines).toContain('nodes no v1 false Node');
    expect(lines).toContain('deployments deploy apps/v1 true Deployment');
    expect(lines).toContain('endpointslices discovery.k8s.io/v1 true EndpointSlice');
    expect(lines).toContain('leases coordination.k8s.io/v1 true Lease');
  });

  it('get nodes -o wide', async () => {
    const lines = squash((await c.kubectl(['get', 'nodes', '-o', 'wide'])).stdout);
    expect(lines[0]).toBe('NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME');
    expect(lines[1]).toMatch(/^node-1 Ready control-plane \d+s v1\.32\.4-kubelab 127\.0\.0\.1 <none> Debian GNU\/Linux 12 \(bookworm\) 6\.1\.0-kubelab containerd:\/\/1\.7\.24-kubelab$/);
  });

  it('get pods -o wide: READY, STATUS, RESTARTS "3 (15m ago)", IP, NODE', async () => {
    const lines = squash((await c.kubectl(['get', 'pods', '-o', 'wide'])).stdout);
    expect(lines[0]).toBe('NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES');
    expect(lines[1]).toMatch(/^nginx 1\/1 Running 3 \(15m ago\) \d+s 10\.244\.0\.5 node-1 <none> <none>$/);
  });

  it('get pods -A adds the NAMESPACE column; -n kube-system get pods -o wide', async () => {
    const lines = squash((await c.kubectl(['get', 'pods', '-A'])).stdout);
    expect(lines[0]).toBe('NAMESPACE NAME READY STATUS RESTARTS AGE');
    expect(lines.slice(1).map((l) => l.split(' ').slice(0, 4).join(' '))).toEqual(['default nginx 1/1 Running', 'kube-system coredns 1/1 Running']);
    const ks = squash((await c.kubectl(['-n', 'kube-system', 'get', 'pods', '-o', 'wide'])).stdout);
    expect(ks[1]).toMatch(/^coredns 1\/1 Running 0 \d+s 10\.244\.0\.2 node-1 <none> <none>$/);
  });

  it('get -l, --field-selector and --show-labels', async () => {
    const l = squash((await c.kubectl(['get', 'pods', '-A', '-l', 'k8s-app=kube-dns'])).stdout);
    expect(l.slice(1).map((x) => x.split(' ')[1])).toEqual(['coredns']);
    const f = squash((await c.kubectl(['get', 'pods', '-A', '--field-selector', 'spec.nodeName=node-1,metadata.namespace!=default'])).stdout);
    expect(f.slice(1).map((x) => x.split(' ')[1])).toEqual(['coredns']);
    const s = squash((await c.kubectl(['get', 'pods', '--show-labels'])).stdout);
    expect(s[0]).toBe('NAME READY STATUS RESTARTS AGE LABELS');
    expect(s[1]).toMatch(/ run=nginx$/);
    const none = await c.kubectl(['get', 'pods', '-l', 'app=nothing']);
    expect(none.stderr.trim()).toBe('No resources found in default namespace.');
  });

  it('get all lists the "all" category', async () => {
    const r = await c.kubectl(['get', 'all']);
    expect(r.stdout).toMatch(/pod\/nginx\s+1\/1\s+Running/);
    expect(r.stdout).toMatch(/service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP/);
  });

  it('get cm kube-proxy -n kube-system -o jsonpath (the seed lab line)', async () => {
    const r = await c.kubectl(['get', 'cm', 'kube-proxy', '-n', 'kube-system', '-o', 'jsonpath={.data.config\\.conf}']);
    expect(r.stdout.split('\n').filter((l) => l.includes('mode'))).toEqual(['mode: iptables']);
  });

  it('-n kube-system get daemonsets (the seed lab line): DESIRED is the node count', async () => {
    const lines = squash((await c.kubectl(['-n', 'kube-system', 'get', 'daemonsets'])).stdout);
    expect(lines[0]).toBe('NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE');
    expect(lines[1]).toMatch(/^kube-proxy 1 1 1 1 1 kubernetes\.io\/os=linux \d+s$/);
  });

  it('logs POD -n NAMESPACE; -o custom-columns', async () => {
    expect((await c.kubectl(['logs', 'coredns', '-n', 'kube-system'])).stdout).toBe('nginx: ready\nGET / 200\n');
    expect(kubeletRequests.at(-1)).toBe('kube-apiserver-kubelet-client /containerLogs/kube-system/coredns/coredns');
    const cc = squash((await c.kubectl(['get', 'pods', '-A', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name,IP:.status.podIP,NODE:.spec.nodeName'])).stdout);
    expect(cc).toEqual(['NS NAME IP NODE', 'default nginx 10.244.0.5 node-1', 'kube-system coredns 10.244.0.2 node-1']);
  });

  it('get pod -o yaml prints the stored object', async () => {
    const r = await c.kubectl(['get', 'pod', 'nginx', '-o', 'yaml']);
    expect(r.stdout).toMatch(/^apiVersion: v1\nkind: Pod\nmetadata:/);
    expect(r.stdout).toContain('  nodeName: node-1\n');
    expect(r.stdout).toContain('  phase: Running\n');
    expect((await c.kubectl(['get', 'pods', '-o', 'name'])).stdout).toBe('pod/nginx\n');
  });

  it('get events --sort-by=.lastTimestamp orders oldest first', async () => {
    const lines = squash((await c.kubectl(['get', 'events', '--sort-by=.lastTimestamp'])).stdout);
    expect(lines[0]).toBe('LAST SEEN TYPE REASON OBJECT MESSAGE');
    expect(lines.slice(1)).toEqual([
      '30m Normal Scheduled pod/nginx Successfully assigned default/nginx to node-1',
      '20m Normal Pulled pod/nginx Container image "nginx:1.27" already present on machine',
      '10m Warning BackOff pod/nginx Back-off restarting failed container nginx in pod nginx_default',
    ]);
  });

  it('describe pod shows the pod and its events', async () => {
    const r = await c.kubectl(['describe', 'pod', 'nginx']);
    expect(r.stdout).toMatch(/^Name:\s+nginx\nNamespace:\s+default\n/);
    expect(r.stdout).toMatch(/Node:\s+node-1\/127\.0\.0\.1\n/);
    expect(r.stdout).toMatch(/Status:\s+Running\n/);
    expect(r.stdout).toMatch(/IP:\s+10\.244\.0\.5\n/);
    expect(r.stdout).toMatch(/Restart Count:\s+3\n/);
    const events = squash(r.stdout.slice(r.stdout.indexOf('Events:')));
    expect(events).toEqual([
      'Events:',
      'Type Reason Age From Message',
      '---- ------ ---- ---- -------',
      'Normal Scheduled 30m default-scheduler Successfully assigned default/nginx to node-1',
      'Normal Pulled 20m kubelet Container image "nginx:1.27" already present on machine',
      'Warning BackOff 10m (x3 over 11m) kubelet Back-off restarting failed container nginx in pod nginx_default',
    ]);
  });

  it('describe node: conditions, capacity, allocatable, taints, lease, non-terminated pods', async () => {
    const r = await c.kubectl(['describe', 'node', 'node-1']);
    const out = r.stdout;
    expect(out).toMatch(/Roles:\s+control-plane\n/);
    expect(out).toMatch(/Taints:\s+node-role\.kubernetes\.io\/control-plane:NoSchedule\n/);
    expect(out).toMatch(/Lease:\n\s+HolderIdentity:\s+node-1\n/);
    const conditions = squash(out.slice(out.indexOf('Conditions:'), out.indexOf('Addresses:')));
    expect(conditions[1]).toBe('Type Status LastHeartbeatTime LastTransitionTime Reason Message');
    expect(conditions.find((l) => l.startsWith('Ready '))).toMatch(/^Ready True .* KubeletReady kubelet is posting ready status$/);
    expect(out).toMatch(/Capacity:\n\s+cpu:\s+2\n\s+memory:\s+4012Mi\n\s+pods:\s+110\n/);
    expect(out).toMatch(/Allocatable:\n\s+cpu:\s+2\n\s+memory:\s+3912Mi\n\s+pods:\s+110\n/);
    expect(out).toMatch(/Non-terminated Pods:\s+\(2 in total\)\n/);
    expect(out).toMatch(/\n\s+default\s+nginx\s+100m \(5%\)\s+0 \(0%\)\s+64Mi \(1%\)\s+0 \(0%\)/);
    expect(out).toMatch(/\n\s+cpu\s+200m \(10%\)\s+0 \(0%\)\n/);
  });

  it('explain pod.spec.containers answers from the OpenAPI v3 schemas', async () => {
    const r = await c.kubectl(['explain', 'pod.spec.containers']);
    expect(r.stdout).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: containers <\[\]Container>\n/);
    expect(r.stdout).toMatch(/\n  image\t<string>\n/);
    expect(r.stdout).toMatch(/\n  name\t<string> -required-\n/);
    expect(r.stdout).toMatch(/\n  livenessProbe\t<Probe>\n/);
    // Two-typed values print their name; a timestamp prints as a string.
    expect((await c.kubectl(['explain', 'deployment.spec.strategy.rollingUpdate'])).stdout).toMatch(/\n  maxSurge\t<IntOrString>\n/);
    expect((await c.kubectl(['explain', 'pod.spec.containers.resources'])).stdout).toMatch(/\n  limits\t<map\[string\]Quantity>\n/);
    expect((await c.kubectl(['explain', 'pod.metadata.creationTimestamp'])).stdout).toMatch(/\nFIELD: creationTimestamp <string>\n/);
  });

  it("logs are proxied to the node's kubelet", async () => {
    const r = await c.kubectl(['logs', 'nginx', '--tail=5', '--timestamps']);
    expect(r.stdout).toBe('nginx: ready\nGET / 200\n');
    expect(kubeletRequests.at(-1)).toBe('kube-apiserver-kubelet-client /containerLogs/default/nginx/nginx?timestamps=true&tailLines=5');
    const missing = await c.kubectl(['logs', 'nosuch']);
    expect(missing.stderr.trim()).toBe('error: error from server (NotFound): pods "nosuch" not found in namespace "default"');
  });

  it('get pods -w prints a row per change and keeps watching', async () => {
    const w = c.spawnKubectl(['get', 'pods', '-w']);
    try {
      await waitFor('the nginx row', () => w.output().includes('nginx'), POLL);
      const pods = c.api.registry.store('', 'v1', 'pods')!;
      await pods.patch(
        'default',
        'nginx',
        'application/merge-patch+json',
        { status: { phase: 'Running', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 4, image: 'nginx', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } }] } },
        {},
        'status',
      );
      const out = await waitFor('the CrashLoopBackOff row', () => (w.output().includes('CrashLoopBackOff') ? w.output() : undefined), POLL);
      expect(squash(out).map((l) => l.split(' ').slice(0, 4).join(' '))).toEqual(['NAME READY STATUS RESTARTS', 'nginx 1/1 Running 3', 'nginx 0/1 CrashLoopBackOff 4']);
      expect(w.child.exitCode).toBeNull();
    } finally {
      w.child.kill();
    }
  });
});
