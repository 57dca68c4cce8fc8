// Containers outlive containerd, as upstream's shims make them: containerd
// runs here as its real process (dist/main.js, shims on), is killed with
// SIGKILL, and the pod's port keeps answering; a new containerd adopts the
// shim and sees the same container running, never started twice. Each
// sandbox's shim is a virtual one (its own socket, task directory and pid)
// in the node's one shim host process.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSandboxNetwork, sandboxPortKey } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import WebSocket from 'ws';
import { containerConfig, criClient, sandboxConfig, type Cri } from '../src/testing/harness.js';
import { V5 } from '../src/streaming/protocol.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kubelab-shim-'));
const socket = join(dir, 'containerd.sock');
const taskRoot = join(dir, 'io.containerd.runtime.v2.task', 'k8s.io');
const hostDir = join(dir, 'io.containerd.runtime.v2.shim-host');
/** The shim host's real pid (undefined when none runs). */
const hostPid = () => (existsSync(join(hostDir, 'shim.pid')) ? Number(readFileSync(join(hostDir, 'shim.pid'), 'utf8')) : undefined);
/** Whether sandbox id's (virtual) shim is there: its task directory names it. */
const shimThere = (id: string) => existsSync(join(taskRoot, id, 'shim.pid'));
let containerd: ChildProcess | undefined;
let cri: Cri | undefined;

async function startContainerd(): Promise<Cri> {
  rmSync(socket, { force: true });
  containerd = spawn(
    process.execPath,
    [MAIN, '--node-name', 'node-1', '--address', socket, '--root', join(dir, 'root'), '--health-port', '0', '--pull-speed', '0', '--pod-cidr', '10.244.1.0/24', '--v', 'error'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await waitFor('containerd to serve CRI', async () => existsSync(socket), { timeoutMs: 30_000 });
  const c = criClient(socket);
  await waitFor('Version to answer', async () => (await c.rt.Version({ version: 'v1' }).catch(() => undefined)) !== undefined, { timeoutMs: 30_000 });
  return c;
}

/** The state file (written within 250 ms of a change, as a coalesced write) has the container running. */
const recorded = (containerId: string) =>
  waitFor('the state file to record the running container', async () => {
    const st = JSON.parse(readFileSync(join(dir, 'root', 'kubelab-cri-state.json'), 'utf8')) as { containers: { id: string; state: string }[] };
    return st.containers.some((c) => c.id === containerId && c.state === 'CONTAINER_RUNNING');
  });

function killContainerd(): Promise<void> {
  const p = containerd!;
  cri?.close();
  cri = undefined;
  return new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

function get(addr: string, path = '/'): Promise<{ status: number; text: string }> {
  const [host, port] = addr.split(':');
  return new Promise((resolve, reject) => {
    request({ host, port: Number(port), path, headers: { 'user-agent': 'curl/8.5.0' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    })
      .on('error', reject)
      .end();
  });
}

/** The channels of a remotecommand v5 stream until the server closes it. */
function execStream(url: string): Promise<Record<number, string>> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), [V5]);
    const channels: Record<number, string> = {};
    ws.on('message', (d: Buffer) => (channels[d[0]!] = (channels[d[0]!] ?? '') + d.subarray(1).toString()));
    ws.on('close', () => resolve(channels));
    ws.on('error', reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  cri = await startContainerd();
}, 60_000);

afterAll(async () => {
  cri?.close();
  containerd?.kill('SIGKILL');
  // A shim host the test left behind (a failed assertion) goes too.
  const pid = hostPid();
  if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('containerd-shim-runc-v2', () => {
  it('keeps a pod serving through kill -9 of containerd; the next containerd adopts the running container', async () => {
    const sbCfg = sandboxConfig('web', dir);
    const { podSandboxId } = await cri!.rt.RunPodSandbox({ config: sbCfg });
    await cri!.img.PullImage({ image: { image: 'nginx' } });
    const { containerId } = await cri!.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'nginx'), sandboxConfig: sbCfg });
    await cri!.rt.StartContainer({ containerId });
    const logFile = join(sbCfg.logDirectory, 'app/0.log');

    // One shim for the sandbox, with upstream's command line, in the sandbox's task directory: a virtual one (its pid past pid_max) in the shim host.
    const shimPid = Number(readFileSync(join(taskRoot, podSandboxId, 'shim.pid'), 'utf8'));
    const host = hostPid()!;
    expect(shimPid).toBeGreaterThan(Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8')));
    expect(readFileSync(`/proc/${host}/cmdline`, 'utf8').replace(/\0+$/, '').split(/[\0 ]/)).toEqual(['containerd-shim-runc-v2', '-namespace', 'k8s.io', '-address', socket]);
    // ps.json follows a task's start within 200 ms.
    const ps = await waitFor('ps.json to list the container', async () => {
      const f = JSON.parse(readFileSync(join(taskRoot, podSandboxId, 'ps.json'), 'utf8')) as { pid: number; tasks: { id: string; pid: number; argv: string[] }[] };
      return f.tasks.length ? f : undefined;
    });
    expect(ps).toEqual({
      pid: shimPid,
      host,
      argv: ['containerd-shim-runc-v2', '-namespace', 'k8s.io', '-id', podSandboxId, '-address', socket],
      startedMs: expect.any(Number),
      tasks: [{ id: containerId, pid: 1, argv: ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'] }],
    });
    expect(JSON.parse(readFileSync(join(hostDir, 'ps.json'), 'utf8'))).toEqual({ pid: host, shims: '../io.containerd.runtime.v2.task/k8s.io' });

    const addr = await waitFor('the mapped port of 80/TCP', async () => {
      const st = await cri!.rt.PodSandboxStatus({ podSandboxId, verbose: true });
      return decodeSandboxNetwork(st.info)?.ports[sandboxPortKey(80)];
    });
    const before = (await cri!.rt.ContainerStatus({ containerId })).status!;
    await recorded(containerId);

    await killContainerd();
    expect(alive(host)).toBe(true);
    expect((await get(addr)).status).toBe(200);

    cri = await startContainerd();
    const list = (await cri.rt.ListContainers({})).containers;
    expect(list.map((c) => ({ id: c.id, state: c.state, attempt: c.metadata?.attempt }))).toEqual([{ id: containerId, state: 'CONTAINER_RUNNING', attempt: 0 }]);
    const { status: after, info } = await cri.rt.ContainerStatus({ containerId, verbose: true });
    expect(after!.startedAt).toBe(before.startedAt);
    expect(JSON.parse(info.info!)).toMatchObject({ recovered: false });
    const st = await cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
    expect(decodeSandboxNetwork(st.info)?.ports[sandboxPortKey(80)]).toBe(addr);

    const out = await cri.rt.ExecSync({ containerId, cmd: ['cat', '/etc/hostname'], timeout: 10 });
    expect({ stdout: Buffer.from(out.stdout).toString(), exitCode: out.exitCode }).toEqual({ stdout: 'web\n', exitCode: 0 });
    // kubectl exec's stream, through containerd's streaming server to the shim that runs the container.
    const { url } = await cri.rt.Exec({ containerId, cmd: ['sh', '-c', 'echo $HOSTNAME; exit 3'], stdout: true, stderr: true });
    expect(await execStream(url)).toEqual({
      1: 'web\n',
      3: JSON.stringify({
        metadata: {},
        status: 'Failure',
        message: "command terminated with non-zero exit code: command 'sh -c echo $HOSTNAME; exit 3' exited with 3",
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      }),
    });
    await get(addr, '/after-restart');
    await waitFor('the access log line of a request after the restart', async () => readFileSync(logFile, 'utf8').includes('"GET /after-restart HTTP/1.1" 404'));
    // Started once: the entrypoint's line is in the log once.
    expect(
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('Configuration complete; ready for start up')),
    ).toHaveLength(1);

    // The sandbox's end ends its shim, and the task directory goes with it.
    await cri.rt.StopPodSandbox({ podSandboxId });
    expect((await cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
    await cri.rt.RemovePodSandbox({ podSandboxId });
    await waitFor('the shim to end', async () => !existsSync(join(taskRoot, podSandboxId)), { timeoutMs: 15_000 });
    // Its last shim gone, the host exits.
    await waitFor('the shim host to exit', async () => !alive(host), { timeoutMs: 15_000 });
    expect(existsSync(hostDir)).toBe(false);
  }, 120_000);

  it('marks the containers of a shim that died while containerd was down as exited with 255 Unknown', async () => {
    const sbCfg = sandboxConfig('lost', dir);
    const { podSandboxId } = await cri!.rt.RunPodSandbox({ config: sbCfg });
    await cri!.img.PullImage({ image: { image: 'busybox' } });
    const { containerId } = await cri!.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox', { command: ['sleep', '3600'] }), sandboxConfig: sbCfg });
    await cri!.rt.StartContainer({ containerId });
    await recorded(containerId);
    await killContainerd();
    process.kill(hostPid()!, 'SIGKILL');
    await waitFor('the shim host to die', async () => !alive(hostPid()!));
    cri = await startContainerd();
    expect((await cri.rt.ContainerStatus({ containerId })).status).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 255,
      reason: 'Unknown',
      message: 'process lost on runtime restart: shim is gone',
    });
    await cri.rt.RemovePodSandbox({ podSandboxId });
  }, 120_000);

  it('ends the shim of a sandbox the state file never recorded', async () => {
    const sbCfg = sandboxConfig('unrecorded', dir);
    const { podSandboxId } = await cri!.rt.RunPodSandbox({ config: sbCfg });
    expect(shimThere(podSandboxId)).toBe(true);
    await killContainerd();
    // As if containerd had died before its metadata was written.
    const stateFile = join(dir, 'root', 'kubelab-cri-state.json');
    const st = JSON.parse(readFileSync(stateFile, 'utf8')) as { sandboxes: { id: string }[] };
    writeFileSync(stateFile, JSON.stringify({ ...st, sandboxes: st.sandboxes.filter((s) => s.id !== podSandboxId) }));
    cri = await startContainerd();
    expect(existsSync(join(taskRoot, podSandboxId))).toBe(false);
    // Its shim ended in the host (whose last shim it was: the host goes too).
    await waitFor('the shim host to exit', async () => hostPid() === undefined, { timeoutMs: 15_000 });
  }, 120_000);
});
