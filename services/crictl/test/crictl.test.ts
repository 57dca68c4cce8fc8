// crictl against the mock containerd: a sandbox and a container run through
// CRI, then the built bin is run as on the node and its printed lines checked.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeHarness } from './harness.js';

let n: NodeHarness;
let pod: { podSandboxId: string; containerId: string };
const podLabels = { 'io.kubernetes.container.name': 'app', 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'default' };

beforeAll(async () => {
  n = await startNode();
  pod = await n.h.runPod('web', 'busybox:1.37', { labels: podLabels, command: ['sh', '-c', 'echo hello from app; echo oops >&2; sleep 3600'] });
}, 60_000);
afterAll(() => n?.dispose());

/** A row as Go's tabwriter lays it out here: every cell but the last padded to 20 (no cell is wider). */
const row = (...cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(20))).join('');
const CREATED = '(?:Less than a second|\\d+ seconds?|About a minute) ago';
/** A row whose CREATED cell (at index `col`) is as wide as its text needs: "Less than a second ago" widens the column past 20, the header with it. */
const rowCreated = (col: number, created: string, ...cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(i === col ? Math.max(20, created.length + 3) : 20))).join('');

describe('crictl', { timeout: 30_000 }, () => {
  it('ps lists the running container with crictl columns and 13-character IDs', async () => {
    const r = await n.crictl(['ps']);
    expect(r.stderr).toBe('');
    const [header, line, ...rest] = r.stdout.split('\n');
    const created = new RegExp(`^.{40}(${CREATED})`).exec(line ?? '')?.[1] ?? 'no CREATED cell';
    expect(header).toBe(rowCreated(2, created, 'CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'));
    expect(line).toBe(rowCreated(2, created, pod.containerId.slice(0, 13), 'busybox:1.37', created, 'Running', 'app', '0', pod.podSandboxId.slice(0, 13), 'web', 'default'));
    expect(rest).toEqual(['']);
  });

  it('ps -q and --no-trunc print whole IDs', async () => {
    expect((await n.crictl(['ps', '-q'])).stdout).toBe(`${pod.containerId}\n`);
    expect((await n.crictl(['ps', '-a', '--no-trunc'])).stdout).toContain(`${pod.containerId}   busybox:1.37`);
  });

  it('pods lists the sandbox', async () => {
    const r = await n.crictl(['pods', '--name', 'web']);
    const [header, line] = r.stdout.split('\n');
    const created = new RegExp(`^.{20}(${CREATED})`).exec(line ?? '')?.[1] ?? 'no CREATED cell';
    expect(header).toBe(rowCreated(1, created, 'POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME'));
    expect(line).toBe(rowCreated(1, created, pod.podSandboxId.slice(0, 13), created, 'Ready', 'web', 'default', '0', '(default)'));
  });

  it('images lists the pulled image', async () => {
    const r = await n.crictl(['images']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('IMAGE                       TAG                 IMAGE ID            SIZE');
    expect(lines.some((l) => /^docker\.io\/library\/busybox\s{3}1\.37\s{16}[0-9a-f]{13}\s{7}2\.2MB$/.test(l))).toBe(true);
  });

  it('inspect resolves an ID prefix and prints the status as crictl (sorted keys, RFC 3339 times)', async () => {
    const r = await n.crictl(['inspect', pod.containerId.slice(0, 8)]);
    expect(r.stderr).toBe('');
    const v = JSON.parse(r.stdout) as { status: Record<string, unknown>; info: Record<string, unknown> };
    expect(Object.keys(v)).toEqual(['info', 'status']);
    expect(v.status).toMatchObject({ id: pod.containerId, state: 'CONTAINER_RUNNING', finishedAt: '0001-01-01T00:00:00Z', metadata: { attempt: 0, name: 'app' } });
    expect(v.status.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Object.keys(v.status)).toEqual([...Object.keys(v.status)].sort());
    expect(v.info).toMatchObject({ sandboxID: pod.podSandboxId });
  });

  it('inspectp shows the sandbox with its IP', async () => {
    const v = JSON.parse((await n.crictl(['inspectp', pod.podSandboxId.slice(0, 6)])).stdout) as { status: Record<string, unknown> };
    expect(v.status).toMatchObject({ id: pod.podSandboxId, state: 'SANDBOX_READY', network: { ip: expect.stringMatching(/^10\.244\.1\.\d+$/) } });
  });

  it('logs decodes the CRI log file; --tail and --timestamps', async () => {
    const r = await n.crictl(['logs', pod.containerId.slice(0, 8)]);
    expect(r.stdout).toBe('hello from app\n');
    expect(r.stderr).toBe('oops\n');
    const t = await n.crictl(['logs', '--tail', '1', '--timestamps', pod.containerId]);
    expect(t.stdout).toBe('');
    expect(t.stderr).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z oops\n$/);
  });

  it('logs -f follows appended lines and ends when the container stops', async () => {
    const p = await n.h.runPod('ticker', 'busybox:1.37', { labels: podLabels, command: ['sh', '-c', 'echo one; sleep 2; echo two; sleep 1'] });
    const started = Date.now();
    const r = await n.crictl(['logs', '-f', p.containerId]);
    expect(r).toMatchObject({ stdout: 'one\ntwo\n', code: 0 });
    // It waited for "two" (2 s in), and stopped within cri-client's 5 s state check after the exit.
    expect(Date.now() - started).toBeGreaterThan(2000);
    await n.h.cri.rt.RemovePodSandbox({ podSandboxId: p.podSandboxId });
  });

  it('exec streams over SPDY (default) and WebSocket; a failure names the exit code', async () => {
    expect(await n.crictl(['exec', pod.containerId.slice(0, 8), 'echo', 'hi'])).toMatchObject({ stdout: 'hi\n', code: 0 });
    expect(await n.crictl(['exec', '--transport', 'websocket', pod.containerId, 'echo', 'ws'])).toMatchObject({ stdout: 'ws\n', code: 0 });
    const bad = await n.crictl(['exec', pod.containerId.slice(0, 8), 'sh', '-c', 'exit 3']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^time="[^"]+" level=error msg="execing command in container ${pod.containerId.slice(0, 8)}: command terminated with exit code 3"\n$`));
  });

  it('exec -s runs ExecSync and prints stdout and stderr with Println', async () => {
    expect(await n.crictl(['exec', '-s', pod.containerId, 'echo', 'sync'])).toMatchObject({ stdout: 'sync\n\n\n', code: 0 });
  });

  it('exec -i feeds stdin to the command', async () => {
    const r = await n.crictl(['exec', '-i', pod.containerId, 'cat'], { input: 'from stdin\n' });
    expect(r).toMatchObject({ stdout: 'from stdin\n', code: 0 });
  });

  it('exec -t gets a terminal (CRLF); -it runs a shell on stdin over either transport', async () => {
    expect(await n.crictl(['exec', '-t', pod.containerId, 'echo', 'tty'])).toMatchObject({ stdout: 'tty\r\n', code: 0 });
    for (const transport of ['spdy', 'websocket']) {
      const r = await n.crictl(['exec', '-it', '--transport', transport, pod.containerId, 'sh'], { input: 'echo in-shell\nexit 4\n' });
      expect(r.stdout).toContain('in-shell\r\n');
      expect(r.stderr).toContain('command terminated with exit code 4');
    }
  });

  it('stats and statsp show the columns of a sample', async () => {
    const s = await n.crictl(['stats']);
    const lines = s.stdout.replace('\x1b[2J\x1b[H', '').split('\n');
    expect(lines[0]).toBe(row('CONTAINER', 'NAME', 'CPU %', 'MEM', 'DISK', 'INODES', 'SWAP'));
    expect(lines[1]).toMatch(new RegExp(`^${pod.containerId.slice(0, 13)}\\s{7}app\\s{17}\\d+\\.\\d\\d\\s+[\\d.]+[kMG]?B\\s+[\\d.]+[kMG]?B\\s+\\d+\\s+0B$`));
    const p = await n.crictl(['statsp']);
    expect(p.stdout.replace('\x1b[2J\x1b[H', '').split('\n')[0]).toBe(row('POD', 'POD ID', 'CPU %', 'MEM'));
  });

  it('version', async () => {
    expect((await n.crictl(['version'])).stdout).toBe('Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v1.7.24-kubelab\nRuntimeApiVersion:  v1\n');
  });

  it('an unknown container is the runtime NotFound, wrapped as crictl wraps it', async () => {
    const r = await n.crictl(['inspect', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^time="[^"]+" level=error msg="get the status of containers: get container status: rpc error: code = NotFound desc = an error occurred when try to find container \\"nope\\": not found"\n$/,
    );
  });

  it('each call is a CRI call the runtime records: cri-client validates with Version and ImageFsInfo, then ListContainers', async () => {
    const from = n.records.length;
    await n.crictl(['ps']);
    expect(n.records.slice(from).map((r) => `${r.service}/${r.method} ${r.code}`)).toEqual(['RuntimeService/Version OK', 'ImageService/ImageFsInfo OK', 'RuntimeService/ListContainers OK']);
  });

  it('without an endpoint it warns of the deprecated defaults and tries each', async () => {
    const r = await n.crictl(['version'], { env: { KUBELAB_NODE_ROOT: `${n.root}/nothing-here` } });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toContain(
      'level=warning msg="runtime connect using default endpoints: [unix:///run/containerd/containerd.sock unix:///run/crio/crio.sock unix:///var/run/cri-dockerd.sock]. As the default settings are now deprecated, you should set the endpoint instead."',
    );
    expect(lines[1]).toContain(
      'level=error msg="validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///run/containerd/containerd.sock\\": rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory\\""',
    );
    expect(lines).toHaveLength(5);
  });

  it('stopp and rmp stop and remove a pod; rmp of a ready pod needs -f', async () => {
    const other = await n.h.runPod('gone', 'busybox:1.37', { labels: podLabels, command: ['sleep', '3600'] });
    const refused = await n.crictl(['rmp', other.podSandboxId]);
    expect(refused.stderr).toContain(`msg="pod sandbox \\"${other.podSandboxId}\\" is running, please stop it first"`);
    expect((await n.crictl(['stopp', other.podSandboxId.slice(0, 10)])).stdout).toBe(`Stopped sandbox ${other.podSandboxId.slice(0, 10)}\n`);
    expect((await n.crictl(['pods', '--state', 'notready', '-q'])).stdout).toBe(`${other.podSandboxId}\n`);
    expect((await n.crictl(['rmp', other.podSandboxId])).stdout).toBe(`Removed sandbox ${other.podSandboxId}\n`);
    expect((await n.crictl(['pods', '-q'])).stdout).toBe(`${pod.podSandboxId}\n`);
  });
});
