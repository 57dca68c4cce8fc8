// `kubectl cp` both ways, byte-exact, with the real kubectl: from a pod it
// runs `tar cf - PATH` in the container and reads the archive (GNU tar's
// stripped leading `/` is what it expects), to a pod `test -d DEST` then `tar
// -xmf - -C DIR` with the archive on stdin. Files include every byte value.
// kubectl 1.27–1.29 speak SPDY for exec: they are covered where SPDY is served.

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { KUBECTL, POLL, sdkKubectl, startCluster, type Cluster } from './harness.js';
import { startNode } from './node.js';

const run = requireTool('kubectl');

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: box
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "100000"]
`;

/** Every byte value, invalid UTF-8 and a multibyte character. */
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i)), Buffer.from([0xc3, 0x28]), Buffer.from('é\n')]);

/** The files of a local directory tree, relative path → bytes. */
function tree(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, tree(dir, rel));
    else out[rel] = readFileSync(join(dir, rel));
  }
  return out;
}

const CLIENTS: [string, string][] = [
  ['1.32', KUBECTL],
  ['1.33', sdkKubectl(33)],
  ['1.30', sdkKubectl(30)],
];

describe.skipIf(!run)('kubectl cp', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;
  let local: string;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'cp');
    local = mkdtempSync(join(c.dir, 'local-'));
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: POD })).stdout).toBe('pod/box created\n');
    await waitFor('box Running', async () => /^box\s+1\/1\s+Running/m.test((await c.kubectl(['get', 'pod', 'box', '--no-headers'])).stdout), { ...POLL, timeoutMs: 30_000 });
    // A binary file in the pod, written from stdin.
    expect(await c.kubectl(['exec', '-i', 'box', '--', 'sh', '-c', 'mkdir -p /data && cat > /data/bin'], { stdin: BINARY })).toEqual({ stdout: '', stderr: '', code: 0 });
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('kubectl exec -i writes stdin to a file byte for byte (cat > FILE)', async () => {
    const r = await c.kubectl(['exec', 'box', '--', 'wc', '-c', '/data/bin']);
    expect(r.stdout).toBe(`${BINARY.length} /data/bin\n`);
    // Read back raw: kubectl's stdout carries the bytes unchanged.
    const back = await c.kubectlBytes(['exec', 'box', '--', 'cat', '/data/bin']);
    expect(back.stdout).toEqual(BINARY);
  });

  for (const [version, bin] of CLIENTS) {
    describe(`kubectl ${version}`, () => {
      it('copies a file out of the pod with an absolute path: kubectl cp box:/etc/hostname ./x', async () => {
        const dest = join(local, `hostname-${version}`);
        const r = await c.kubectl(['cp', 'box:/etc/hostname', dest], { bin });
        // GNU tar's notice, as kubectl prints what tar wrote on stderr — from a goroutine that can lose
        // the race with kubectl's exit under load (upstream too), so it may be missing, never different.
        expect({ ...r, stdout: r.stdout.replace("tar: Removing leading `/' from member names\n", '') }).toEqual({ stdout: '', stderr: '', code: 0 });
        expect(readFileSync(dest, 'utf8')).toBe('box\n');
      });

      it('copies a binary file out of the pod unchanged', async () => {
        const dest = join(local, `bin-${version}`);
        expect((await c.kubectl(['cp', 'box:/data/bin', dest], { bin })).code).toBe(0);
        expect(readFileSync(dest)).toEqual(BINARY);
      });

      it('copies a directory into the pod and back, byte-exact', async () => {
        const src = join(local, `src-${version}`);
        mkdirSync(join(src, 'sub', 'deeper'), { recursive: true });
        writeFileSync(join(src, 'a.txt'), 'hello\n');
        writeFileSync(join(src, 'sub', 'bin'), BINARY);
        writeFileSync(join(src, 'sub', 'deeper', 'ünïcode name.txt'), 'é€\n');
        const remote = `/tmp/dir-${version}`;
        expect(await c.kubectl(['cp', src, `box:${remote}`], { bin })).toEqual({ stdout: '', stderr: '', code: 0 });
        const listing = await c.kubectl(['exec', 'box', '--', 'find', remote, '-type', 'f']);
        expect(listing.stdout.trim().split('\n').sort()).toEqual([`${remote}/a.txt`, `${remote}/sub/bin`, `${remote}/sub/deeper/ünïcode name.txt`]);
        expect((await c.kubectlBytes(['exec', 'box', '--', 'cat', `${remote}/sub/bin`])).stdout).toEqual(BINARY);

        const back = join(local, `back-${version}`);
        expect((await c.kubectl(['cp', `box:${remote}`, back], { bin })).code).toBe(0);
        expect(tree(back)).toEqual(tree(src));
      });

      it('copies a file into an existing directory of the pod (kubectl asks `test -d` first)', async () => {
        const file = join(local, `up-${version}.bin`);
        writeFileSync(file, BINARY);
        expect(await c.kubectl(['cp', file, 'box:/tmp'], { bin })).toEqual({ stdout: '', stderr: '', code: 0 });
        expect((await c.kubectlBytes(['exec', 'box', '--', 'cat', `/tmp/up-${version}.bin`])).stdout).toEqual(BINARY);
      });
    });
  }

  it('reports a missing remote file as tar does', async () => {
    const r = await c.kubectl(['cp', 'box:/nope', join(local, 'nope')]);
    // tar stats a name before it strips it: no notice for a missing one. Whether kubectl sees the exit code before it exits is a race in kubectl itself.
    expect(r.stdout).toBe('tar: /nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n');
  });
});
