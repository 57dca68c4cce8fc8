// `kubectl port-forward` and SPDY exec end to end with real kubectl binaries:
// kubectl → apiserver (pods/portforward) → kubelet (/portForward, CRI
// PortForward) → the mock containerd's streaming server → the simulated
// nginx's listener, with a real kubelet and runtime in-process on loopback.
// kubectl 1.27 and 1.29 speak SPDY/3.1; 1.33 tunnels SPDY through a
// WebSocket (SPDY/3.1+portforward.k8s.io) that the apiserver unwraps; the JS
// client's PortForward speaks WebSocket v4.channel.k8s.io.

import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { KubeConfig, PortForward } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireTool, waitFor } from '@kubelab/testing';
import { POLL, sdkKubectl, startCluster, type Cluster } from './harness.js';
import { PTY_DRIVER, startNode } from './node.js';

const VERSIONS = [27, 29, 33].filter((v) => existsSync(sdkKubectl(v)));
const run = requireTool('kubectl') && VERSIONS.length > 0;
const hasPython = requireTool('python3');

const OBJECTS = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  nodeName: node-1
  containers:
  - name: nginx
    image: nginx:1.27.3
    ports: [{containerPort: 80, name: http}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports: [{port: 8080, targetPort: http}]
`;

/** A HEAD request to 127.0.0.1:port: the status line and the Server header. */
function head(port: number): Promise<{ status: number; server: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, method: 'HEAD', path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, server: String(res.headers.server) }));
    })
      .on('error', reject)
      .end();
  });
}

describe.skipIf(!run)('kubectl port-forward and SPDY exec', { timeout: 90_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'portforward');
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: OBJECTS })).stdout).toBe('pod/web created\nservice/web created\n');
    await waitFor('web Running', async () => /^web\s+1\/1\s+Running/m.test((await c.kubectl(['get', 'pods', 'web', '--no-headers'])).stdout), { ...POLL, timeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  /**
   * Runs `kubectl port-forward <target> <local>:<remote>` until it says it
   * forwards to the pod's port `podPort`, calls `use`, then stops it.
   */
  async function forwarding<T>(
    minor: number,
    target: string,
    remote: number,
    use: (local: number) => Promise<T>,
    o: { podPort?: number; extra?: string[] } = {},
  ): Promise<{ value: T; output: string }> {
    const local = await freePort();
    const { child, output } = c.spawnKubectl(['port-forward', target, `${local}:${remote}`, ...(o.extra ?? [])], { bin: sdkKubectl(minor) });
    try {
      const shown = `Forwarding from 127.0.0.1:${local} -> ${o.podPort ?? remote}\n`;
      await waitFor(`kubectl 1.${minor} forwarding`, async () => output().includes(shown) || undefined, { ...POLL, timeoutMs: 20_000 });
      return { value: await use(local), output: output() };
    } finally {
      child.kill();
    }
  }

  it.each(VERSIONS)('kubectl 1.%i port-forward pod/web: a HEAD request gets nginx’s answer', async (minor) => {
    const { value } = await forwarding(minor, 'pod/web', 80, (local) => head(local));
    expect(value).toEqual({ status: 200, server: 'nginx/1.27.3' });
  });

  it.skipIf(!VERSIONS.includes(33))('kubectl 1.33 tunnels SPDY through the WebSocket (no fallback to SPDY)', async () => {
    const { value, output } = await forwarding(33, 'pod/web', 80, (local) => head(local), { extra: ['-v=4'] });
    expect(value.server).toBe('nginx/1.27.3');
    expect(output).not.toMatch(/fallback/i);
  });

  it('kubectl port-forward svc/web: the service port maps to the pod’s named target port', async () => {
    const { value } = await forwarding(VERSIONS.at(-1)!, 'svc/web', 8080, (local) => head(local), { podPort: 80 });
    expect(value.server).toBe('nginx/1.27.3');
  });

  it.skipIf(!VERSIONS.includes(29))('a port nobody listens on: kubectl 1.29 reports containerd’s refusal', async () => {
    const { output } = await forwarding(29, 'pod/web', 81, async (local) => {
      await head(local).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(output).toMatch(
      /an error occurred forwarding \d+ -> 81: error forwarding port 81 to pod [0-9a-f]{64}, uid : failed to execute portforward in network namespace "\/var\/run\/netns\/cni-[0-9a-f-]+": failed to connect to localhost:81 inside namespace "[0-9a-f]{64}", IPv4: dial tcp4 127\.0\.0\.1:81: connect: connection refused IPv6 dial tcp6 \[::1\]:81: connect: connection refused/,
    );
  });

  it.skipIf(!VERSIONS.includes(27))('kubectl 1.27 exec (SPDY): the command’s output and its exit code', async () => {
    const ok = await c.kubectl(['exec', 'web', '--', 'sh', '-c', 'echo hello from $(hostname)'], { bin: sdkKubectl(27) });
    expect(ok).toEqual({ stdout: 'hello from web\n', stderr: '', code: 0 });
    const failed = await c.kubectl(['exec', 'web', '--', 'sh', '-c', 'echo oops >&2; exit 3'], { bin: sdkKubectl(27) });
    expect(failed).toEqual({ stdout: '', stderr: 'oops\ncommand terminated with exit code 3\n', code: 3 });
    const piped = await c.kubectl(['exec', '-i', 'web', '--', 'cat'], { bin: sdkKubectl(27), stdin: 'piped through SPDY\n' });
    expect(piped).toEqual({ stdout: 'piped through SPDY\n', stderr: '', code: 0 });
  });

  it.skipIf(!VERSIONS.includes(29) || !hasPython)('kubectl 1.29 exec -it (SPDY, with the resize stream): a shell on a terminal', async () => {
    writeFileSync(join(node!.dir, 'pty_driver.py'), PTY_DRIVER);
    const typed = [
      ['echo tty over spdy\r', '# '],
      ['exit 4\r', '# '],
    ];
    const kubectl = [sdkKubectl(29), `--cache-dir=${join(c.dir, 'cache-29')}`, 'exec', '-it', 'web', '--', 'sh'];
    const child = spawn('python3', [join(node!.dir, 'pty_driver.py'), JSON.stringify(typed), ...kubectl], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: c.dir, KUBECONFIG: join(c.dir, 'kubeconfig') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => child.on('exit', r));
    const { screen, code } = JSON.parse(out) as { screen: string; code: number };
    expect(screen).toMatch(/^(\/ )?# echo tty over spdy\r\ntty over spdy\r\n(\/ )?# exit 4\r\ncommand terminated with exit code 4\r\n$/);
    expect(code).toBe(4);
  });

  it('the JS client’s PortForward moves bytes both ways', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(join(c.dir, 'kubeconfig'));
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const input = Readable.from([Buffer.from('HEAD / HTTP/1.1\r\nHost: web\r\nConnection: close\r\n\r\n')]);
    const ws = await new PortForward(kc).portForward('default', 'web', [80], out, null, input);
    try {
      await waitFor('nginx’s answer through the JS client', async () => /^HTTP\/1\.1 200 OK\r\n[\s\S]*Server: nginx\/1\.27\.3\r\n/.test(text) || undefined, { ...POLL, timeoutMs: 10_000 });
    } finally {
      (ws as { close(): void }).close();
    }
  });
});
