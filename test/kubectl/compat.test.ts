// The compatibility matrix: every kubectl on the machine (1.27 … 1.33) against
// one cluster with a real kubelet and runtime, each doing what a course does
// with it. A row fails when a client of that age breaks where a real
// apiserver does not (older ones ask for OpenAPI v2, SPDY, aggregated
// discovery v2beta1 …).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, sdkKubectl, startCluster, type Cluster, type KubectlResult } from './harness.js';
import { startNode } from './node.js';
import { head, portForward } from './forward.js';

const MINORS = [27, 28, 29, 30, 31, 32, 33];
const CI = process.env.CI === 'true';
/** The versioned clients of the Google Cloud SDK; under CI every one must be there. */
const clients = MINORS.map((minor) => ({ minor, bin: sdkKubectl(minor) })).filter(({ bin }) => CI || existsSync(bin));
const run = requireTool('kubectl') && clients.length > 0;

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: box
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo box up; sleep 100000"]
---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  nodeName: node-1
  containers:
  - name: nginx
    image: nginx:1.27.3
    ports: [{containerPort: 80}]
---
apiVersion: v1
kind: Pod
metadata:
  name: ticker
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "while true; do echo tick; sleep 1; done"]
---
apiVersion: v1
kind: Pod
metadata:
  name: once
spec:
  nodeName: node-1
  restartPolicy: Never
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo one; echo two"]
`;

const configMap = (name: string, value: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
  greeting: "${value}"
`;

describe.runIf(run)('kubectl 1.27 … 1.33 against kubelab', { timeout: 120_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'compat');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).stdout).toBe('pod/box created\npod/web created\npod/ticker created\npod/once created\n');
    await waitFor(
      'box and web Running, once Succeeded',
      async () => {
        const r = await c.kubectl(['get', 'pods', 'box', 'web', 'ticker', 'once', '--no-headers']);
        return ['box', 'web', 'ticker'].every((p) => new RegExp(`^${p}\\s+1/1\\s+Running`, 'm').test(r.stdout)) && /^once\s+0\/1\s+Completed/m.test(r.stdout);
      },
      { ...POLL, timeoutMs: 60_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  describe.each(clients)('kubectl 1.$minor', ({ minor, bin }) => {
    const k = (args: string[], stdin?: string): Promise<KubectlResult> => c.kubectl(args, { bin, ...(stdin !== undefined ? { stdin } : {}) });
    const name = `compat-${minor}`;

    it('apply creates, then configures (client-side apply through OpenAPI)', async () => {
      expect(await k(['apply', '-f', '-'], configMap(name, 'hello'))).toEqual({ stdout: `configmap/${name} created\n`, stderr: '', code: 0 });
      expect(await k(['apply', '-f', '-'], configMap(name, 'hallo'))).toEqual({ stdout: `configmap/${name} configured\n`, stderr: '', code: 0 });
      const got = await k(['get', 'configmap', name, '-o', 'jsonpath={.data.greeting}']);
      expect(got.stdout).toBe('hallo');
    });

    it('diff shows what apply would change (exit code 1)', async () => {
      const r = await k(['diff', '-f', '-'], configMap(name, 'servus'));
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^-\s+greeting: hallo$/m);
      expect(r.stdout).toMatch(/^\+\s+greeting: servus$/m);
    });

    it('explain describes a field from the published schema', async () => {
      const r = await k(['explain', 'pods.spec.containers.image']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/FIELD:\s+image\s+<string>/);
      expect(r.stdout).toContain('KIND:');
    });

    it('logs -f follows a container to its end', async () => {
      expect(await k(['logs', '-f', 'once'])).toEqual({ stdout: 'one\ntwo\n', stderr: '', code: 0 });
    });

    it('api-resources lists the built-in kinds from discovery', async () => {
      const r = await k(['api-resources', '--no-headers']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
      expect(r.stdout).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
    });

    it(`exec runs a command in the container (${minor >= 30 ? 'WebSocket' : 'SPDY/3.1'})`, async () => {
      expect(await k(['exec', 'box', '-c', 'app', '--', 'sh', '-c', 'echo hi; exit 3'])).toEqual({ stdout: 'hi\n', stderr: 'command terminated with exit code 3\n', code: 3 });
    });

    it(`attach shows the main process's output as it comes (${minor >= 30 ? 'WebSocket' : 'SPDY/3.1'})`, async () => {
      const { child, output } = c.spawnKubectl(['attach', 'ticker'], { bin });
      try {
        await waitFor('two ticks', async () => output().split('tick\n').length > 2 || undefined, { ...POLL, timeoutMs: 15_000 });
      } finally {
        child.kill('SIGINT');
      }
      expect(output()).toMatch(/^If you don't see a command prompt, try pressing enter\.\n(tick\n)+/);
    });

    it('port-forward carries TCP to the pod: nginx answers a HEAD request', async () => {
      const { value } = await portForward(c, bin, 'pod/web', 80, (local) => head(local));
      expect(value).toEqual({ status: 200, server: 'nginx/1.27.3' });
    });

    it('cp copies a file out of the pod and one into it (tar strips the leading /)', async () => {
      const out = join(c.dir, `hostname-${minor}`);
      const r = await k(['cp', '-c', 'app', 'box:/etc/hostname', out]);
      // tar's notice is printed by a goroutine of kubectl's that can lose the race with its exit (upstream too): present or not, nothing else.
      expect({ ...r, stdout: r.stdout.replace("tar: Removing leading `/' from member names\n", '') }).toEqual({ stdout: '', stderr: '', code: 0 });
      expect(readFileSync(out, 'utf8')).toBe('box\n');
      const up = join(c.dir, `up-${minor}.txt`);
      writeFileSync(up, `from kubectl 1.${minor}\n`);
      expect(await k(['cp', '-c', 'app', up, `box:/tmp/up-${minor}.txt`])).toEqual({ stdout: '', stderr: '', code: 0 });
      expect((await k(['exec', 'box', '-c', 'app', '--', 'cat', `/tmp/up-${minor}.txt`])).stdout).toBe(`from kubectl 1.${minor}\n`);
    });

    it('debug adds an ephemeral container that runs in the pod', async () => {
      const dbg = `dbg-${minor}`;
      const r = await k(['debug', 'box', '--image=busybox:1.36', '-c', dbg, '--', 'sh', '-c', 'echo "debugging $(hostname)"']);
      expect(r.code).toBe(0);
      await waitFor(
        `${dbg} terminated`,
        async () => /"terminated"/.test((await k(['get', 'pod', 'box', '-o', `jsonpath={.status.ephemeralContainerStatuses[?(@.name=="${dbg}")].state}`])).stdout),
        POLL,
      );
      expect(await k(['logs', 'box', '-c', dbg])).toEqual({ stdout: 'debugging box\n', stderr: '', code: 0 });
    });

    it('apply --server-side records the manager in managedFields', async () => {
      const ssa = `ssa-${minor}`;
      expect(await k(['apply', '--server-side', '-f', '-'], configMap(ssa, 'one'))).toEqual({ stdout: `configmap/${ssa} serverside-applied\n`, stderr: '', code: 0 });
      const managers = await k(['get', 'configmap', ssa, '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}/{.metadata.managedFields[*].operation}']);
      expect(managers.stdout).toBe('kubectl/Apply');
    });
  });
});
