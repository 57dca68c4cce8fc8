// A securityContext lab with the real kubectl 1.32: the kubelet maps the
// pod's and containers' securityContext to the CRI, the mock containerd's
// simulated kernel applies it, and `kubectl exec` shows what a process in
// the container observes (id, a read-only root, its capabilities, sysctls).
// runAsNonRoot over an image that runs as root fails as on a node.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, startCluster, type Cluster } from './harness.js';
import { startNode } from './node.js';

const run = requireTool('kubectl');

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: secure
spec:
  nodeName: node-1
  securityContext:
    runAsUser: 1000
    runAsGroup: 3000
    fsGroup: 2000
    seccompProfile:
      type: RuntimeDefault
  volumes:
  - name: data
    emptyDir: {}
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "100000"]
    volumeMounts:
    - name: data
      mountPath: /data
    securityContext:
      readOnlyRootFilesystem: true
      allowPrivilegeEscalation: false
---
apiVersion: v1
kind: Pod
metadata:
  name: caps
spec:
  nodeName: node-1
  securityContext:
    sysctls:
    - name: kernel.shm_rmid_forced
      value: "1"
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "100000"]
    securityContext:
      capabilities:
        add: ["NET_ADMIN"]
        drop: ["CHOWN"]
---
apiVersion: v1
kind: Pod
metadata:
  name: nonroot
spec:
  nodeName: node-1
  securityContext:
    runAsNonRoot: true
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "100000"]
`;

describe.skipIf(!run)('kubectl 1.32: securityContext', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'security-context');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).stdout).toBe('pod/secure created\npod/caps created\npod/nonroot created\n');
    await waitFor(
      'secure and caps Running',
      async () => {
        const r = await c.kubectl(['get', 'pods', 'secure', 'caps', '--no-headers']);
        return /^secure\s+1\/1\s+Running/m.test(r.stdout) && /^caps\s+1\/1\s+Running/m.test(r.stdout);
      },
      { ...POLL, timeoutMs: 30_000 },
    );
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('kubectl exec id: runAsUser, runAsGroup, and fsGroup among the groups', async () => {
    expect(await c.kubectl(['exec', 'secure', '--', 'id'])).toEqual({ stdout: 'uid=1000 gid=3000 groups=2000,3000\n', stderr: '', code: 0 });
    expect(await c.kubectl(['exec', 'caps', '--', 'id'])).toEqual({ stdout: 'uid=0(root) gid=0(root) groups=0(root)\n', stderr: '', code: 0 });
  });

  it('readOnlyRootFilesystem: touch on the root fails, the emptyDir stays writable', async () => {
    expect(await c.kubectl(['exec', 'secure', '--', 'touch', '/x'])).toEqual({ stdout: '', stderr: 'touch: /x: Read-only file system\ncommand terminated with exit code 1\n', code: 1 });
    expect(await c.kubectl(['exec', 'secure', '--', 'sh', '-c', 'echo hi > /x'])).toEqual({
      stdout: '',
      stderr: "sh: can't create /x: Read-only file system\ncommand terminated with exit code 1\n",
      code: 1,
    });
    expect(await c.kubectl(['exec', 'secure', '--', 'sh', '-c', 'touch /data/ok && echo ok'])).toEqual({ stdout: 'ok\n', stderr: '', code: 0 });
  });

  it('/proc/self/status: capabilities, no_new_privs and the seccomp mode', async () => {
    const status = async (pod: string) => (await c.kubectl(['exec', pod, '--', 'grep', '-E', '^(CapEff|CapBnd|NoNewPrivs|Seccomp):', '/proc/self/status'])).stdout;
    // NET_ADMIN (bit 12) added and CHOWN (bit 0) dropped from containerd's a80425fb; no seccomp filter (Unconfined).
    expect(await status('caps')).toBe('CapEff:\t00000000a80435fa\nCapBnd:\t00000000a80435fa\nNoNewPrivs:\t0\nSeccomp:\t0\n');
    // A non-root user: no effective capabilities; allowPrivilegeEscalation false and RuntimeDefault.
    expect(await status('secure')).toBe('CapEff:\t0000000000000000\nCapBnd:\t00000000a80425fb\nNoNewPrivs:\t1\nSeccomp:\t2\n');
  });

  it('a dropped capability: chown fails with EPERM; the pod sysctl shows under /proc/sys', async () => {
    expect(await c.kubectl(['exec', 'caps', '--', 'chown', '1000', '/etc/passwd'])).toEqual({
      stdout: '',
      stderr: 'chown: /etc/passwd: Operation not permitted\ncommand terminated with exit code 1\n',
      code: 1,
    });
    expect(await c.kubectl(['exec', 'caps', '--', 'cat', '/proc/sys/kernel/shm_rmid_forced'])).toEqual({ stdout: '1\n', stderr: '', code: 0 });
  });

  it('runAsNonRoot with an image that runs as root: CreateContainerConfigError in get pods and describe', async () => {
    const uid = (await c.kubectl(['get', 'pod', 'nonroot', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const message = `container has runAsNonRoot and image will run as root (pod: "nonroot_default(${uid})", container: app)`;
    await waitFor(
      'nonroot CreateContainerConfigError',
      async () => /^nonroot\s+0\/1\s+CreateContainerConfigError\s+0\s/m.test((await c.kubectl(['get', 'pods', 'nonroot', '--no-headers'])).stdout) || undefined,
      { ...POLL, timeoutMs: 30_000 },
    );
    expect((await c.kubectl(['get', 'pod', 'nonroot', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.message}'])).stdout).toBe(message);
    const describe = (await c.kubectl(['describe', 'pod', 'nonroot'])).stdout;
    expect(describe).toMatch(/^ {6}Reason: {7}CreateContainerConfigError$/m);
    expect(describe).toMatch(new RegExp(`^ {2}Warning {2}Failed .* kubelet +Error: ${message.replace(/[()".]/g, '\\$&')}$`, 'm'));
  });
});
