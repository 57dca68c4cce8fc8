// Exec streams carry bytes end to end: what a client sends on stdin lands in
// the container's files unchanged, and bytes a command passes through (cat of
// a binary file, tar's archive) reach the client unchanged, bytes ≥ 0x80 and
// invalid UTF-8 included, while text programs print stays UTF-8.

import { extract } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '@kubelab/testing';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';
import { CLOSE, STDIN, V5 } from '../src/streaming/protocol.js';

let h: Harness;
let containerId: string;

/** Every byte value, then invalid UTF-8 and a valid multibyte character. */
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from([0xc3, 0x28, 0xe2, 0x82]), Buffer.from('é€\n')]);

beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
  const cfg = sandboxConfig('bytes', h.dir);
  const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
  await h.cri.img.PullImage({ image: { image: 'busybox' } });
  ({ containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('app', 'busybox', { command: ['sh', '-c', 'echo ready > /tmp/state; sleep 600'] }), sandboxConfig: cfg }));
  await h.cri.rt.StartContainer({ containerId });
  await waitFor('the container to write /tmp/state', async () => ((await h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/state'], timeout: 1 })).exitCode === 0 ? true : undefined));
});
afterAll(async () => {
  await h?.dispose();
});

/** Runs `cmd` over the streaming server with `stdin` (sent in `pieces` frames, then CLOSE); the bytes of each channel. */
async function exec(cmd: string[], stdin?: Buffer, pieces = 1): Promise<Record<number, Buffer>> {
  const { url } = await h.cri.rt.Exec({ containerId, cmd, stdin: stdin !== undefined, stdout: true, stderr: true });
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), [V5]);
    const parts: Record<number, Buffer[]> = {};
    ws.on('open', () => {
      if (!stdin) return;
      const size = Math.ceil(stdin.length / pieces);
      for (let i = 0; i < stdin.length; i += size) ws.send(Buffer.concat([Buffer.from([STDIN]), stdin.subarray(i, i + size)]));
      ws.send(Buffer.from([CLOSE, STDIN]));
    });
    ws.on('message', (d: Buffer) => (parts[d[0]!] ??= []).push(d.subarray(1)));
    ws.on('close', () => resolve(Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Buffer.concat(v)]))));
    ws.on('error', reject);
  });
}

describe('byte-exact exec streams', () => {
  it('a file written from stdin reads back identical, through cat and through a pipe', async () => {
    // Split mid-character: the frames' boundaries must not matter.
    const w = await exec(['sh', '-c', 'cat > /tmp/bin'], BINARY, 7);
    expect(w[3]?.toString()).toBe('{"metadata":{},"status":"Success"}');
    expect((await exec(['cat', '/tmp/bin']))[1]).toEqual(BINARY);
    expect((await exec(['sh', '-c', 'cat /tmp/bin | cat']))[1]).toEqual(BINARY);
    expect((await exec(['wc', '-c', '/tmp/bin']))[1]?.toString()).toBe(`${BINARY.length} /tmp/bin\n`);
  });

  it('stdin piped through a command comes back unchanged; text output stays UTF-8', async () => {
    expect((await exec(['cat'], BINARY))[1]).toEqual(BINARY);
    expect(await exec(['sh', '-c', 'echo héllo; printf "€\\n" >&2'])).toMatchObject({ 1: Buffer.from('héllo\n'), 2: Buffer.from('€\n') });
  });

  it('tar cf - streams a real archive with the leading / stripped and its notice on stderr', async () => {
    await exec(['sh', '-c', 'mkdir -p /data/sub && cat > /data/sub/bin'], BINARY);
    const out = await exec(['tar', 'cf', '-', '/data']);
    expect(out[2]?.toString()).toBe("tar: Removing leading `/' from member names\n");
    expect(out[1]!.length % 10240).toBe(0);
    const x = extract();
    x.end(out[1]!);
    const got: [string, Buffer][] = [];
    for await (const e of x) {
      const chunks: Buffer[] = [];
      for await (const c of e) chunks.push(c as Buffer);
      got.push([e.header.name, Buffer.concat(chunks)]);
    }
    expect(got).toEqual([
      ['data/', Buffer.alloc(0)],
      ['data/sub/', Buffer.alloc(0)],
      ['data/sub/bin', BINARY],
    ]);
  });

  it('tar -xmf - -C DIR extracts an archive from stdin (kubectl cp to a pod)', async () => {
    const archive = (await exec(['tar', 'cf', '-', '-C', '/data', 'sub']))[1]!;
    const r = await exec(['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/tmp'], archive, 3);
    expect(r[2]).toBeUndefined();
    expect((await exec(['cat', '/tmp/sub/bin']))[1]).toEqual(BINARY);
  });
});
