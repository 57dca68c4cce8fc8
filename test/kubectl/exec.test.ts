// `kubectl exec` end to end with the real kubectl 1.32: kubectl → apiserver
// (pods/exec, WebSocket v5.channel.k8s.io) → kubelet (/exec, CRI Exec) →
// the mock containerd's streaming server, with a real kubelet and runtime
// in-process on loopback. Container time and probes run 10x faster
// (--time-scale), so the liveness scenario takes seconds.

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
  name: box
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo data > /etc/motd; touch /tmp/healthy; echo box up; sleep 100000"]
    livenessProbe:
      exec:
        command: ["cat", "/tmp/healthy"]
      periodSeconds: 10
      failureThreshold: 3
---
apiVersion: v1
kind: Pod
metadata:
  name: two
spec:
  nodeName: node-1
  containers:
  - name: web
    image: busybox:1.36
    command: ["sleep", "100000"]
    env: [{name: ROLE, value: web}]
  - name: side
    image: busybox:1.36
    command: ["sleep", "100000"]
    env: [{name: ROLE, value: side}]
---
apiVersion: v1
kind: Pod
metadata:
  name: pending
spec:
  containers:
  - name: app
    image: busybox:1.36
`;

describe.skipIf(!run)('kubectl 1.32: exec', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'exec');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).stdout).toBe('pod/box created\npod/two created\npod/pending created\n');
    await waitFor(
      'box and two Running',
      async () => {
        const r = await c.kubectl(['get', 'pods', 'box', 'two', '--no-headers']);
        return /^box\s+1\/1\s+Running/m.test(r.stdout) && /^two\s+2\/2\s+Running/m.test(r.stdout);
      },
      { ...POLL, timeoutMs: 30_000 },
    );
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('prints the command output: kubectl exec POD -- echo hi / cat a file', async () => {
    expect(await c.kubectl(['exec', 'box', '--', 'echo', 'hi'])).toEqual({ stdout: 'hi\n', stderr: '', code: 0 });
    expect(await c.kubectl(['exec', 'box', '--', 'cat', '/etc/motd'])).toEqual({ stdout: 'data\n', stderr: '', code: 0 });
  });

  it("kubectl logs POD reads the container's output from the kubelet (HTTPS, as kube-apiserver-kubelet-client)", async () => {
    expect(await c.kubectl(['logs', 'box'])).toEqual({ stdout: 'box up\n', stderr: '', code: 0 });
  });

  it('propagates the exit code and stderr', async () => {
    expect(await c.kubectl(['exec', 'box', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'])).toEqual({ stdout: 'out\n', stderr: 'err\ncommand terminated with exit code 3\n', code: 3 });
    expect(await c.kubectl(['exec', 'box', '--', 'cat', '/nope'])).toEqual({ stdout: '', stderr: 'cat: /nope: No such file or directory\ncommand terminated with exit code 1\n', code: 1 });
  });

  it('passes stdin with -i: echo x | kubectl exec -i POD -- cat', async () => {
    expect(await c.kubectl(['exec', '-i', 'box', '--', 'cat'], { stdin: 'x\ny\n' })).toEqual({ stdout: 'x\ny\n', stderr: '', code: 0 });
  });

  it('runs a shell fed line by line on stdin: state carries across lines, exit N ends it', async () => {
    const r = await c.kubectl(['exec', '-i', 'box', '--', 'sh'], { stdin: 'cd /tmp\nX=42\necho "$X in $(pwd)"\nfalse\necho "status $?"\nexit 7\necho never\n' });
    expect(r).toEqual({ stdout: '42 in /tmp\nstatus 1\n', stderr: 'command terminated with exit code 7\n', code: 7 });
  });

  it.runIf(hasPython)(
    'kubectl exec -it POD -- sh on a terminal: prompt, echo, ^C, exit code',
    async () => {
      writeFileSync(join(node!.dir, 'pty_driver.py'), PTY_DRIVER);
      // Each line is typed once the terminal shows what it waits for (the prompt; ^C once the sleep runs).
      const typed = [
        ['cd /tmp\r', '/ # '],
        ['echo hi > f; ls\r', '/tmp # '],
        ['sleep 1000\r', '/tmp # '],
        ['\x03', 'sleep 1000\r\n'],
        ['echo $?\r', '/tmp # '],
        ['exit 2\r', '/tmp # '],
      ];
      const child = spawn('python3', [join(node!.dir, 'pty_driver.py'), JSON.stringify(typed), '/usr/bin/kubectl', `--cache-dir=${join(c.dir, 'cache')}`, 'exec', '-it', 'box', '--', 'sh'], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: c.dir, KUBECONFIG: join(c.dir, 'kubeconfig') },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((r) => child.on('exit', r));
      const { screen, code } = JSON.parse(out) as { screen: string; code: number };
      expect(screen).toBe('/ # cd /tmp\r\n/tmp # echo hi > f; ls\r\nf\r\nhealthy\r\n/tmp # sleep 1000\r\n^C\r\n/tmp # echo $?\r\n130\r\n/tmp # exit 2\r\ncommand terminated with exit code 2\r\n');
      expect(code).toBe(2);
    },
    120_000,
  );

  it.runIf(hasPython)(
    'kubectl exec -it POD -- vi FILE: insert, Enter, Esc, arrow keys, x, dd and :wq on the terminal',
    async () => {
      writeFileSync(join(node!.dir, 'pty_driver.py'), PTY_DRIVER);
      // Each key is typed once the screen is drawn for the one before: its last bytes put the cursor (row;col).
      const typed = [
        ['i', '"/tmp/note" [New file]\x1b[1;1H'],
        ['hello', '-- INSERT --\x1b[1;1H'],
        ['\r', '-- INSERT --\x1b[1;6H'],
        ['world', '-- INSERT --\x1b[2;1H'],
        ['\x1b', '-- INSERT --\x1b[2;6H'],
        ['\x1b[A', '\x1b[2;5H'],
        ['x', '\x1b[1;5H'],
        ['j', '\x1b[1;4H'],
        ['dd', '\x1b[2;4H'],
        [':wq\r', '\x1b[1;1H'],
      ];
      const child = spawn(
        'python3',
        [join(node!.dir, 'pty_driver.py'), JSON.stringify(typed), '/usr/bin/kubectl', `--cache-dir=${join(c.dir, 'cache')}`, 'exec', '-it', 'box', '--', 'vi', '/tmp/note'],
        {
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: c.dir, KUBECONFIG: join(c.dir, 'kubeconfig') },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((r) => child.on('exit', r));
      const { screen, code } = JSON.parse(out) as { screen: string; code: number };
      expect(code).toBe(0);
      expect(screen).toContain('\x1b[H\x1b[J\r\n~\r\n');
      expect(screen).toContain('-- INSERT --');
      expect(await c.kubectl(['exec', 'box', '--', 'cat', '/tmp/note'])).toEqual({ stdout: 'hell\n', stderr: '', code: 0 });
    },
    120_000,
  );

  it('picks a container with -c and defaults to the first one, as kubectl says', async () => {
    expect(await c.kubectl(['exec', 'two', '-c', 'side', '--', 'printenv', 'ROLE'])).toEqual({ stdout: 'side\n', stderr: '', code: 0 });
    expect(await c.kubectl(['exec', 'two', '--', 'printenv', 'ROLE'])).toEqual({ stdout: 'web\n', stderr: 'Defaulted container "web" out of: web, side\n', code: 0 });
  });

  it('answers errors as kubectl users know them', async () => {
    expect(await c.kubectl(['exec', 'nope', '--', 'ls'])).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', code: 1 });
    expect(await c.kubectl(['exec', 'two', '-c', 'nope', '--', 'ls'])).toEqual({ stdout: '', stderr: 'Error from server (BadRequest): container nope is not valid for pod two\n', code: 1 });
    expect(await c.kubectl(['exec', 'pending', '--', 'ls'])).toEqual({ stdout: '', stderr: 'Error from server (BadRequest): pod pending does not have a host assigned\n', code: 1 });
  });

  it('kubectl exec POD -- rm /tmp/healthy makes the liveness probe fail and the container restart', async () => {
    expect(await c.kubectl(['exec', 'box', '--', 'rm', '/tmp/healthy'])).toEqual({ stdout: '', stderr: '', code: 0 });
    await waitFor('box Running after one restart', async () => /^box\s+1\/1\s+Running\s+1\s/m.test((await c.kubectl(['get', 'pod', 'box', '--no-headers'])).stdout), { ...POLL, timeoutMs: 30_000 });
    const events = (await c.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=box'])).stdout;
    expect(events).toMatch(/Unhealthy\s+pod\/box\s+Liveness probe failed: cat: \/tmp\/healthy: No such file or directory/);
    // The restarted container starts from its image again: the file is back.
    expect(await c.kubectl(['exec', 'box', '--', 'ls', '/tmp/healthy'])).toMatchObject({ stdout: '/tmp/healthy\n', code: 0 });
  });
});
