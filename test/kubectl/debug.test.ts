// `kubectl debug` with ephemeral containers, end to end: kubectl patches
// pods/ephemeralcontainers, the kubelet starts the debugger in the pod's
// sandbox, kubectl waits for it to run and attaches to its shell; the pod's
// status.ephemeralContainerStatuses shows it running, then terminated.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import type { Pod } from '@kubelab/api';
import { KUBECTL, POLL, sdkKubectl, startCluster, type Cluster } from './harness.js';
import { PTY_DRIVER, startNode } from './node.js';

const run = requireTool('kubectl');
const hasPython = requireTool('python3');

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  nodeName: node-1
  containers:
  - name: web
    image: nginx:1.27
`;

type Statuses = NonNullable<NonNullable<Pod['status']>['ephemeralContainerStatuses']>;

describe.skipIf(!run)('kubectl debug', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  const statuses = async (): Promise<Statuses> => {
    const r = await c.kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.ephemeralContainerStatuses}']);
    return r.stdout ? (JSON.parse(r.stdout) as Statuses) : [];
  };

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'debug');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: POD })).stdout).toBe('pod/web created\n');
    await waitFor('web Running', async () => /^web\s+1\/1\s+Running/m.test((await c.kubectl(['get', 'pod', 'web', '--no-headers'])).stdout), { ...POLL, timeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('kubectl debug web --image=busybox --target=web -- sh -c ...: runs in the pod, its log, running then terminated, never restarted', async () => {
    const r = await c.kubectl(['debug', 'web', '--image=busybox', '--target=web', '-c', 'dbg', '--', 'sh', '-c', 'echo "in $(hostname)"; cat /etc/hostname; exit 3']);
    expect(r).toMatchObject({
      stdout: 'Targeting container "web". If you don\'t see processes from this container it may be because the container runtime doesn\'t support this feature.\n',
      code: 0,
    });
    const pod = JSON.parse((await c.kubectl(['get', 'pod', 'web', '-o', 'json'])).stdout) as Pod;
    expect(pod.spec?.ephemeralContainers).toEqual([
      expect.objectContaining({
        name: 'dbg',
        image: 'busybox',
        command: ['sh', '-c', 'echo "in $(hostname)"; cat /etc/hostname; exit 3'],
        targetContainerName: 'web',
        terminationMessagePolicy: 'File',
      }),
    ]);
    const done = await waitFor(
      'dbg terminated',
      async () => {
        const s = (await statuses()).find((e) => e.name === 'dbg');
        return s?.state?.terminated ? s : undefined;
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(done).toMatchObject({ name: 'dbg', image: 'docker.io/library/busybox:latest', ready: false, restartCount: 0, state: { terminated: { exitCode: 3, reason: 'Error' } } });
    expect(await c.kubectl(['logs', 'web', '-c', 'dbg'])).toEqual({ stdout: 'in web\nweb\n', stderr: '', code: 0 });
    // Never restarted, and the pod's own container runs on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await statuses()).find((e) => e.name === 'dbg')).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 3 } } });
    expect((await c.kubectl(['get', 'pod', 'web', '--no-headers'])).stdout).toMatch(/^web\s+1\/1\s+Running\s+0\s/);
  });

  it('kubectl debug -i: the debugger shows in the pod as running while its shell waits', async () => {
    const child = c.spawnKubectl(['debug', '-i', 'web', '--image=busybox:1.36', '-c', 'waiter', '--', 'sh', '-c', 'sleep 600']);
    try {
      const s = await waitFor(
        'waiter running',
        async () => {
          const st = (await statuses()).find((e) => e.name === 'waiter');
          return st?.state?.running ? st : undefined;
        },
        { ...POLL, timeoutMs: 20_000 },
      );
      expect(s).toMatchObject({ name: 'waiter', state: { running: { startedAt: expect.any(String) } }, containerID: expect.stringMatching(/^containerd:\/\//) });
    } finally {
      child.child.kill();
    }
  });

  it('refuses a target that is no container of the pod, in upstream words (422 from the subresource)', async () => {
    const r = await c.kubectl(['debug', 'web', '--image=busybox', '-c', 'other', '--target=nope', '--', 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The Pod "web" is invalid: spec.ephemeralContainers[2].targetContainerName: Not found: "nope"\n');
  });

  it.runIf(hasPython)(
    'kubectl debug -it web --image=busybox -- sh on a terminal: a prompt, commands, exit',
    async () => {
      writeFileSync(join(node!.dir, 'pty_driver.py'), PTY_DRIVER);
      for (const bin of [KUBECTL, sdkKubectl(33)]) {
        const name = bin === KUBECTL ? 'tty-132' : 'tty-133';
        const typed = [
          ['\r', "If you don't see a command prompt, try pressing enter.\r\n"],
          ['echo hi from $(hostname)\r', '/ # '],
          ['exit\r', '/ # '],
        ];
        const child = spawn(
          'python3',
          [join(node!.dir, 'pty_driver.py'), JSON.stringify(typed), bin, `--cache-dir=${join(c.dir, `cache-${name}`)}`, 'debug', '-it', 'web', '--image=busybox', '-c', name, '--', 'sh'],
          {
            env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: c.dir, KUBECONFIG: join(c.dir, 'kubeconfig') },
          },
        );
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        await new Promise((resolve) => child.on('close', resolve));
        const r = JSON.parse(out) as { screen: string; code: number };
        expect(r.screen).toContain('echo hi from $(hostname)\r\nhi from web\r\n/ # ');
        expect(r.code).toBe(0);
      }
    },
    60_000,
  );
});
