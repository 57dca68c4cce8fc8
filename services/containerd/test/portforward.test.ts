// CRI PortForward and the SPDY transport of the streaming server: the gRPC
// call returns a one-time URL; a SPDY client (portforward.k8s.io, as kubectl
// ≤1.29 speaks it) or a WebSocket client (v4.channel.k8s.io, as the JS client)
// reaches the simulated nginx on the pod's port 80; exec runs over SPDY
// v4.channel.k8s.io too.

import { request, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachSpdy, type SpdyConnection, type SpdyStream } from '@kubelab/component-base';
import { waitFor } from '@kubelab/testing';
import { startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
let podSandboxId: string;
let containerId: string;

beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
  ({ podSandboxId, containerId } = await h.runPod('web', 'nginx'));
  await waitFor('nginx listening', async () => ((await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true })).info?.info ? true : undefined));
});
afterAll(async () => {
  await h?.dispose();
});

/** Upgrades to SPDY/3.1 offering `protocols`; resolves with the negotiated protocol and a client connection, or the refusal. */
function dialSpdy(url: string, protocols: string[]): Promise<{ status: number; protocol?: string; body?: string; conn?: SpdyConnection; socket?: Duplex }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': protocols } });
    req.on('upgrade', (res: IncomingMessage, socket: Duplex, head: Buffer) => {
      const conn = attachSpdy(socket, { role: 'client' }, head);
      resolve({ status: res.statusCode!, protocol: String(res.headers['x-stream-protocol-version']), conn, socket });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function readAll(s: SpdyStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

/** One forwarded connection as kubectl makes it: an error stream (closed at once for writing), then a data stream. */
async function forward(conn: SpdyConnection, port: number, requestId: number, send: string): Promise<{ data: string; error: string }> {
  const headers = { port: String(port), requestid: String(requestId) };
  const err = conn.openStream({ streamtype: 'error', ...headers });
  err.end();
  const data = conn.openStream({ streamtype: 'data', ...headers });
  const [d, e] = [readAll(data), readAll(err)];
  data.write(send);
  return { data: await d, error: await e };
}

describe('CRI PortForward', () => {
  it('returns a one-time URL of the streaming server; an unknown sandbox is NotFound', async () => {
    const { url } = await h.cri.rt.PortForward({ podSandboxId, port: [80] });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portforward\/[A-Za-z0-9_-]+$/);
    await expect(h.cri.rt.PortForward({ podSandboxId: 'nope', port: [] })).rejects.toThrow('an error occurred when try to find sandbox "nope": not found');
  });

  it('forwards over SPDY: nginx answers through the data stream, several requests on one connection', async () => {
    const { url } = await h.cri.rt.PortForward({ podSandboxId, port: [] });
    const { status, protocol, conn, socket } = await dialSpdy(url, ['portforward.k8s.io']);
    expect([status, protocol]).toEqual([101, 'portforward.k8s.io']);
    for (const id of [0, 1]) {
      const r = await forward(conn!, 80, id, 'HEAD / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(r.error).toBe('');
      expect(r.data).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(r.data).toContain('Server: nginx/1.27.3\r\n');
    }
    socket!.destroy();
  });

  it('writes containerd’s refusal to the error stream when nothing listens on the port', async () => {
    const { url } = await h.cri.rt.PortForward({ podSandboxId, port: [] });
    const { conn, socket } = await dialSpdy(url, ['portforward.k8s.io']);
    const r = await forward(conn!, 81, 0, '');
    const id = podSandboxId;
    expect(r).toEqual({
      data: '',
      error:
        `error forwarding port 81 to pod ${id}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}": ` +
        `failed to connect to localhost:81 inside namespace "${id}", IPv4: dial tcp4 127.0.0.1:81: connect: connection refused IPv6 dial tcp6 [::1]:81: connect: connection refused `,
    });
    socket!.destroy();
  });

  it('refuses a SPDY client without a common protocol: 403 naming what the server accepts', async () => {
    const { url } = await h.cri.rt.PortForward({ podSandboxId, port: [] });
    expect(await dialSpdy(url, ['v4.channel.k8s.io'])).toEqual({
      status: 403,
      body: 'unable to upgrade: unable to negotiate protocol: client supports [v4.channel.k8s.io], server accepts [portforward.k8s.io]\n',
    });
  });

  it('forwards over WebSocket v4.channel.k8s.io: the port first on both channels, then the bytes', async () => {
    const { url } = await h.cri.rt.PortForward({ podSandboxId, port: [80] });
    const got = await new Promise<{ protocol: string; prefixes: string[]; data: string }>((resolve, reject) => {
      const ws = new WebSocket(url.replace(/^http/, 'ws'), ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
      const prefixes: string[] = [];
      let data = '';
      ws.on('open', () => ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')])));
      ws.on('message', (m: Buffer) => {
        if (m.length === 3 && prefixes.length < 2) prefixes.push(`${m[0]}:${m.readUInt16LE(1)}`);
        else if (m[0] === 0) data += m.subarray(1).toString();
      });
      ws.on('close', () => resolve({ protocol: ws.protocol, prefixes, data }));
      ws.on('error', reject);
    });
    expect(got.protocol).toBe('v4.channel.k8s.io');
    expect(got.prefixes).toEqual(['0:80', '1:80']);
    expect(got.data).toContain('Server: nginx/1.27.3\r\n');
  });
});

describe('exec over SPDY', () => {
  it('negotiates v4.channel.k8s.io and runs the command: stdout, then the Status on the error stream', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['sh', '-c', 'echo hi; echo oops >&2; exit 3'], stdout: true, stderr: true });
    const { protocol, conn } = await dialSpdy(url, ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io']);
    expect(protocol).toBe('v4.channel.k8s.io');
    const error = readAll(conn!.openStream({ streamtype: 'error' }));
    const stdout = readAll(conn!.openStream({ streamtype: 'stdout' }));
    const stderr = readAll(conn!.openStream({ streamtype: 'stderr' }));
    expect({ stdout: await stdout, stderr: await stderr, error: JSON.parse(await error) as unknown }).toEqual({
      stdout: 'hi\n',
      stderr: 'oops\n',
      error: {
        metadata: {},
        status: 'Failure',
        message: "command terminated with non-zero exit code: command 'sh -c echo hi; echo oops >&2; exit 3' exited with 3",
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      },
    });
  });

  it('with v2.channel.k8s.io feeds stdin until its FIN and writes only a failure’s text on the error stream', async () => {
    const { url } = await h.cri.rt.Exec({ containerId, cmd: ['cat'], stdin: true, stdout: true });
    const { protocol, conn } = await dialSpdy(url, ['v2.channel.k8s.io']);
    expect(protocol).toBe('v2.channel.k8s.io');
    const error = readAll(conn!.openStream({ streamtype: 'error' }));
    const stdin = conn!.openStream({ streamtype: 'stdin' });
    const stdout = readAll(conn!.openStream({ streamtype: 'stdout' }));
    stdin.end('piped\n');
    expect({ stdout: await stdout, error: await error }).toEqual({ stdout: 'piped\n', error: '' });
  });
});
