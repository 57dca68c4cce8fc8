// CRI Attach end to end inside the runtime: the gRPC call returns a one-time
// URL of the streaming server; a WebSocket client speaking v5.channel.k8s.io
// gets the main process's output from then on and, for a container created
// with stdin, feeds the shell that is its main process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '@kubelab/testing';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';
import { CLOSE, RESIZE, STDIN, V5 } from '../src/streaming/protocol.js';

let h: Harness;
let podSandboxId: string;
let cfg: ReturnType<typeof sandboxConfig>;

beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 10 });
  cfg = sandboxConfig('attach', h.dir);
  ({ podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg }));
  await h.cri.img.PullImage({ image: { image: 'busybox' } });
});
afterAll(async () => {
  await h?.dispose();
});

async function start(name: string, extra: Record<string, unknown>): Promise<string> {
  const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig(name, 'busybox', extra), sandboxConfig: cfg });
  await h.cri.rt.StartContainer({ containerId });
  return containerId;
}

/** A v5 client on an attach URL: what each channel got, and how to type, close stdin, resize and leave. */
function connect(url: string) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), [V5]);
  const channels: Record<number, string> = {};
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  ws.on('message', (d: Buffer) => (channels[d[0]!] = (channels[d[0]!] ?? '') + d.subarray(1).toString()));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return {
    channels,
    opened,
    closed,
    type: (text: string) => ws.send(Buffer.concat([Buffer.from([STDIN]), Buffer.from(text)])),
    closeStdin: () => ws.send(Buffer.from([CLOSE, STDIN])),
    resize: () => ws.send(Buffer.concat([Buffer.from([RESIZE]), Buffer.from('{"Width":80,"Height":24}')])),
    leave: () => ws.close(),
  };
}

const SUCCESS = '{"metadata":{},"status":"Success"}';

describe('CRI Attach and the streaming server', () => {
  it('streams the main process output from now on until the client leaves; the container keeps running', async () => {
    const id = await start('ticker', { command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] });
    const { url } = await h.cri.rt.Attach({ containerId: id, stdout: true, stderr: true });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/attach\/[A-Za-z0-9_-]+$/);
    const c = connect(url);
    await c.opened;
    await waitFor('two ticks', async () => ((c.channels[1] ?? '').split('tick\n').length > 2 ? true : undefined));
    c.leave();
    await c.closed;
    expect(c.channels[1]).toMatch(/^(tick\n)+$/);
    expect((await h.cri.rt.ContainerStatus({ containerId: id })).status?.state).toBe('CONTAINER_RUNNING');
  });

  it('a shell with stdin and a tty: the prompt redrawn on resize, echo, output, and `exit 3` ends the container', async () => {
    const id = await start('shell', { command: ['sh'], stdin: true, stdinOnce: true, tty: true });
    const { url } = await h.cri.rt.Attach({ containerId: id, stdin: true, stdout: true, tty: true });
    const c = connect(url);
    await c.opened;
    c.resize();
    await waitFor('the prompt', async () => (c.channels[1] === '/ # ' ? true : undefined));
    c.type('echo hi\r');
    await waitFor('the output', async () => (c.channels[1]?.endsWith('hi\r\n/ # ') ? true : undefined));
    c.type('exit 3\r');
    expect(await c.closed).toBe(1000);
    expect(c.channels).toEqual({ 1: '/ # echo hi\r\nhi\r\n/ # exit 3\r\n', 3: SUCCESS });
    const st = await h.cri.rt.ContainerStatus({ containerId: id });
    expect([st.status?.state, st.status?.exitCode]).toEqual(['CONTAINER_EXITED', 3]);
  });

  it('stdinOnce without a tty: closing stdin closes the container stdin, the shell exits 0 after running the lines', async () => {
    const id = await start('once', { command: ['sh'], stdin: true, stdinOnce: true });
    const { url } = await h.cri.rt.Attach({ containerId: id, stdin: true, stdout: true, stderr: true });
    const c = connect(url);
    await c.opened;
    c.type('echo out; echo err >&2\n');
    c.closeStdin();
    expect(await c.closed).toBe(1000);
    expect(c.channels).toEqual({ 1: 'out\n', 2: 'err\n', 3: SUCCESS });
    const st = await h.cri.rt.ContainerStatus({ containerId: id });
    expect([st.status?.state, st.status?.exitCode]).toEqual(['CONTAINER_EXITED', 0]);
  });

  it('a container created without stdin ignores input, as containerd does; sh without stdin exits at once', async () => {
    const id = await start('nostdin', { command: ['sh', '-c', 'sleep 600'] });
    const { url } = await h.cri.rt.Attach({ containerId: id, stdin: true, stdout: true, stderr: true });
    const c = connect(url);
    await c.opened;
    c.type('echo hi\n');
    c.closeStdin();
    await new Promise((r) => setTimeout(r, 200));
    expect(c.channels).toEqual({});
    c.leave();
    await c.closed;
    const sh = await start('plainsh', { command: ['sh'] });
    await waitFor('sh to exit', async () => ((await h.cri.rt.ContainerStatus({ containerId: sh })).status?.state === 'CONTAINER_EXITED' ? true : undefined));
  });

  it('refuses as containerd: unknown container NOT_FOUND, stopped container, bad stream options', async () => {
    await expect(h.cri.rt.Attach({ containerId: 'nope', stdout: true })).rejects.toMatchObject({ code: 5, details: 'an error occurred when try to find container "nope": not found' });
    await expect(h.cri.rt.Attach({ containerId: '', stdout: true })).rejects.toMatchObject({ code: 3, details: 'container_id: must not be empty' });
    const id = await start('done', { command: ['true'] });
    await waitFor('exit', async () => ((await h.cri.rt.ContainerStatus({ containerId: id })).status?.state === 'CONTAINER_EXITED' ? true : undefined));
    await expect(h.cri.rt.Attach({ containerId: id, stdout: true })).rejects.toMatchObject({ code: 2, details: 'container is in CONTAINER_EXITED state' });
    const running = await start('idle', { command: ['sleep', '600'] });
    await expect(h.cri.rt.Attach({ containerId: running, stdout: true, stderr: true, tty: true })).rejects.toMatchObject({ code: 3, details: 'tty: tty and stderr cannot both be true' });
    await expect(h.cri.rt.Attach({ containerId: running })).rejects.toMatchObject({ code: 3, details: 'stdin: one of stdin, stdout, and stderr must be set' });
    // An attach URL is not an exec URL.
    const { url } = await h.cri.rt.Attach({ containerId: running, stdout: true });
    await expect(connect(url.replace('/attach/', '/exec/')).opened).rejects.toThrow('Unexpected server response: 404');
  });
});
