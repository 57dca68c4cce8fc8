// The compatibility matrix: every kubectl on the machine (1.27 … 1.33) against
// one cluster with a real kubelet and runtime, each doing what a course does
// with it. A row fails when a client of that age breaks where a real
// apiserver does not (older ones ask for OpenAPI v2, SPDY, aggregated
// discovery v2beta1 …).

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, sdkKubectl, startCluster, type Cluster, type KubectlResult } from './harness.js';
import { startNode } from './node.js';

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
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).stdout).toBe('pod/box created\npod/once created\n');
    await waitFor(
      'box Running and once Succeeded',
      async () => {
        const r = await c.kubectl(['get', 'pods', 'box', 'once', '--no-headers']);
        return /^box\s+1\/1\s+Running/m.test(r.stdout) && /^once\s+0\/1\s+Completed/m.test(r.stdout);
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

    it.runIf(minor >= 30)('exec runs a command in the container (WebSocket)', async () => {
      expect(await k(['exec', 'box', '--', 'echo', 'hi'])).toEqual({ stdout: 'hi\n', stderr: '', code: 0 });
    });
  });
});
