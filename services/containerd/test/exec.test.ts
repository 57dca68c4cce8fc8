// CRI Exec end to end inside the runtime: the gRPC call returns a one-time
// URL of the streaming server, and a WebSocket client speaking
// v5.channel.k8s.io runs the command in the container's filesystem.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '@kubelab/testing';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';
import { CLOSE, STDIN, V5 } from '../src/streaming/protocol.js';

let h: Harness;
let containerId: string;

beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
  const cfg = sandboxConfig('exec', h.dir);
  const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
  await h.cri.img.PullImage({ image: { image: 'busybox' } });
  ({ containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox', { command: ['sh', '-c', 'echo ready > /tmp/state; sleep 600'] }), sandboxConfig: cfg }));
  await h.cri.rt.StartContainer({ containerId });
  await waitFor('the container to write /tmp/state', async () => ((await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/state'], timeout: 1 })).exitCode === 0 ? true : undefined));
});
afterAll(async () => {
  await h?.dispose();
});

/**
 * Connects to an exec URL, writes `stdin` (then CLOSE) or types `typed` one
 * line per prompt, and collects every channel until the server closes.
 */
function stream(url: string, opts: { stdin?: string[]; typed?: string[]; protocols?: string[] } = {}): Promise<{ protocol: string; channels: Record<number, string>; closeCode: number }> {
  const typed = [...(opts.typed ?? [])];
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), opts.protocols ?? [V5]);
    const channels: Record<number, string> = {};
    ws.on('open', () => {
      if (!opts.stdin) return;
      for (const s of opts.stdin) ws.send(Buffer.concat([Buffer.from([STDIN]), Buffer.from(s)]));
      ws.send(Buffer.from([CLOSE, STDIN]));
    });
    ws.on('message', (d: Buffer) => {
      channels[d[0]!] = (channels[d[0]!] ?? '') + d.subarray(1).toString();
      if (d[0] === 1 && channels[1]!.endsWith(' # ') && typed.length) ws.send(Buffer.concat([Buffer.from([STDIN]), Buffer.from(typed.shift()!)]));
    });
    ws.on('close', (code) => resolve({ protocol: ws.protocol, channels, closeCode: code }));
    ws.on('error', reject);
  });
}

describe('CRI Exec and the streaming server', () => {
  it('runs a command: output on stdout, Success on the error channel, normal closure', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['cat', '/tmp/state'], stdout: true, stderr: true });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/exec\/[A-Za-z0-9_-]+$/);
    expect(await stream(url)).toEqual({ protocol: V5, channels: { 1: 'ready\n', 3: '{"metadata":{},"status":"Success"}' }, closeCode: 1000 });
  });

  it('reports a non-zero exit as NonZeroExitCode with the ExitCode cause, stderr on channel 2', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['sh', '-c', 'echo oops >&2; exit 3'], stdout: true, stderr: true });
    const r = await stream(url);
    expect(r.channels[2]).toBe('oops\n');
    expect(JSON.parse(r.channels[3]!)).toEqual({
      metadata: {},
      status: 'Failure',
      message: "command terminated with non-zero exit code: command 'sh -c echo oops >&2; exit 3' exited with 3",
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it('feeds stdin until CLOSE; changes are seen by the container (rm is what a liveness probe notices)', async () => {
    const cat = await h.cri.rt.Exec({ containerId, cmd: ['cat'], stdin: true, stdout: true, stderr: true });
    expect((await stream(cat.url, { stdin: ['x\n', 'y\n'] })).channels[1]).toBe('x\ny\n');
    const rm = await h.cri.rt.Exec({ containerId, cmd: ['rm', '/tmp/state'], stdout: true, stderr: true });
    expect((await stream(rm.url)).channels[3]).toBe('{"metadata":{},"status":"Success"}');
    const probe = await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/state'], timeout: 1 });
    expect(probe.stderr.toString()).toBe('cat: /tmp/state: No such file or directory\n');
  });

  it('runs an interactive sh with a tty: prompt, echo, CRLF output, exit code of `exit`', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['sh'], stdin: true, stdout: true, tty: true });
    const r = await stream(url, { typed: ['cd /tmp\r', 'echo hi; pwd\r', 'exit 5\r'] });
    expect(r.channels[1]).toBe('/ # cd /tmp\r\n/tmp # echo hi; pwd\r\nhi\r\n/tmp\r\n/tmp # exit 5\r\n');
    expect(JSON.parse(r.channels[3]!).details).toEqual({ causes: [{ reason: 'ExitCode', message: '5' }] });
  });

  it('a URL works once; bad requests are refused with the field named', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['true'], stdout: true });
    await stream(url);
    await expect(stream(url)).rejects.toThrow('Unexpected server response: 404');
    await expect(h.cri.rt.Exec({ containerId, cmd: ['ls'] })).rejects.toMatchObject({ code: 3, details: 'stdin: one of stdin, stdout, or stderr must be set' });
    await expect(h.cri.rt.Exec({ containerId, cmd: [], stdout: true })).rejects.toMatchObject({ code: 3, details: 'cmd: must not be empty' });
    await expect(h.cri.rt.Exec({ containerId, cmd: ['ls'], stdout: true, stderr: true, tty: true })).rejects.toMatchObject({ code: 3, details: 'tty: tty and stderr cannot both be true' });
    await expect(h.cri.rt.Exec({ containerId: 'nope', cmd: ['ls'], stdout: true })).rejects.toMatchObject({ code: 5 });
  });

  it('refuses clients that offer no supported subprotocol', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['true'], stdout: true });
    await expect(stream(url, { protocols: ['channel.k8s.io'] })).rejects.toThrow('Unexpected server response: 400');
  });
});
