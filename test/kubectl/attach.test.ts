// `kubectl attach` and `kubectl run -i[t]` end to end with the real kubectl
// 1.32: kubectl → apiserver (pods/attach, WebSocket v5.channel.k8s.io) →
// kubelet (/attach, CRI Attach) → the mock containerd's streaming server,
// which connects the client to the container's main process. A real kubelet
// and runtime run in-process on loopback; container time runs 10x faster.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, startCluster, type Cluster } from './harness.js';
import { PTY_DRIVER, startNode } from './node.js';

const run = requireTool('kubectl');
const hasPython = requireTool('python3');

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: ticker
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "while true; do echo tick; sleep 1; done"]
`;
/** kubectl run has no --node flag; there is no scheduler here. */
const ON_NODE = '--overrides={"spec":{"nodeName":"node-1"}}';
const PROMPT_HINT = "If you don't see a command prompt, try pressing enter.";

describe.skipIf(!run)('kubectl 1.32: attach and run -i', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'attach');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).stdout).toBe('pod/ticker created\n');
    await waitFor('ticker Running', async () => /^ticker\s+1\/1\s+Running/m.test((await c.kubectl(['get', 'pod', 'ticker', '--no-headers'])).stdout), { ...POLL, timeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('kubectl attach POD shows the main process output as it comes, until interrupted', async () => {
    const k = c.spawnKubectl(['attach', 'ticker']);
    await waitFor('three ticks', () => k.output().split('tick\n').length > 3, { ...POLL, timeoutMs: 15_000 });
    k.child.kill('SIGINT');
    await new Promise((r) => k.child.on('exit', r));
    expect(k.output()).toMatch(new RegExp(`^${PROMPT_HINT}\\n(tick\\n)+$`));
    // Detaching leaves the container running.
    expect((await c.kubectl(['get', 'pod', 'ticker', '--no-headers'])).stdout).toMatch(/^ticker\s+1\/1\s+Running\s+0\s/);
  });

  it('kubectl attach -t to a container without a tty says so, as kubectl does, and still streams', async () => {
    const k = c.spawnKubectl(['attach', '-t', 'ticker']);
    await waitFor('a tick', () => k.output().includes('tick\n'), { ...POLL, timeoutMs: 15_000 });
    k.child.kill('SIGINT');
    await new Promise((r) => k.child.on('exit', r));
    expect(k.output()).toMatch(new RegExp(`^error: Unable to use a TTY - container app did not allocate one\\n${PROMPT_HINT}\\n(tick\\n)+$`));
  });

  it('answers errors as kubectl users know them', async () => {
    expect(await c.kubectl(['attach', 'nope'])).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', code: 1 });
    expect(await c.kubectl(['attach', 'ticker', '-c', 'nope'])).toMatchObject({ stderr: 'error: cannot attach to the container: container nope not found in pod ticker\n', code: 1 });
  });

  it('kubectl run -i --rm: stdin feeds the shell, the output is printed, the pod is deleted', async () => {
    const r = await c.kubectl(['run', '-i', '--rm', 'once', '--image=busybox:1.36', '--restart=Never', ON_NODE, '--', 'sh'], { stdin: 'echo hi\nexit 0\n' });
    expect(r).toEqual({ stdout: `hi\npod "once" deleted\n`, stderr: `${PROMPT_HINT}\n`, code: 0 });
    expect((await c.kubectl(['get', 'pod', 'once'])).stderr).toBe('Error from server (NotFound): pods "once" not found\n');
  });

  it('kubectl run -i with --restart=Never returns the exit code of the container', async () => {
    const r = await c.kubectl(['run', '-i', 'fails', '--image=busybox:1.36', '--restart=Never', ON_NODE, '--', 'sh'], { stdin: 'echo bye >&2\nexit 4\n' });
    expect(r).toEqual({ stdout: '', stderr: `${PROMPT_HINT}\nbye\npod default/fails terminated (Error)\n`, code: 4 });
  });

  it.runIf(hasPython)(
    'kubectl run -it on a terminal: the sh prompt, echo hi, exit ends the pod (Completed) and kubectl',
    async () => {
      writeFileSync(join(node!.dir, 'pty_driver.py'), PTY_DRIVER);
      const typed = [
        ['echo hi\r', '/ # '],
        ['exit\r', '/ # '],
      ];
      const child = spawn(
        'python3',
        [
          join(node!.dir, 'pty_driver.py'),
          JSON.stringify(typed),
          '/usr/bin/kubectl',
          `--cache-dir=${join(c.dir, 'cache')}`,
          'run',
          '-it',
          'box',
          '--image=busybox:1.36',
          '--restart=Never',
          ON_NODE,
          '--',
          'sh',
        ],
        {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: c.dir, KUBECONFIG: join(c.dir, 'kubeconfig') },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((r) => child.on('exit', r));
      const { screen, code } = JSON.parse(out) as { screen: string; code: number };
      expect(screen).toBe(`${PROMPT_HINT}\r\n/ # echo hi\r\nhi\r\n/ # exit\r\n`);
      expect(code).toBe(0);
      expect((await c.kubectl(['get', 'pod', 'box', '--no-headers'])).stdout).toMatch(/^box\s+0\/1\s+Completed\s+0\s/);
    },
    120_000,
  );
});
