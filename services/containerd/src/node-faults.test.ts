import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bash } from 'just-bash';
import { afterEach, describe, expect, it } from 'vitest';
import { writeNodeFaults } from '@kubelab/systemd';
import { waitFor } from '@kubelab/testing';
import { ContainerFs } from './containerfs.js';
import { assertWritable, followNodeFaults, oomKernelLines, ReadOnlyFileSystemError, setNodeReadOnly, shellErrorText } from './node-faults.js';

function shell(): Bash {
  const fs = new ContainerFs({ '/etc/hostname': 'web\n', '/data/log': 'one\n' }, () => {});
  const bash = new Bash({ fs, cwd: '/', env: { PATH: '/usr/bin:/bin' }, defenseInDepth: false });
  fs.sealStubs();
  return bash;
}

/** A command line as the runtime runs it: an error that ends the line prints as the shell prints it. */
const run = (bash: Bash, script: string) =>
  bash.exec(script).then(
    (r) => ({ stderr: r.stderr, exitCode: r.exitCode }),
    (err: unknown) => ({ stderr: `${shellErrorText(err)}\n`, exitCode: 1 }),
  );

describe('a read-only node filesystem in the containers (EROFS)', () => {
  afterEach(() => setNodeReadOnly(false));

  it.each([
    ['echo x > /data/new', 'bash: /data/new: Read-only file system\n'],
    ['echo x >> /data/log', 'bash: /data/log: Read-only file system\n'],
    ['touch /data/t', "touch: cannot touch '/data/t': Read-only file system\n"],
    ['mkdir /data/d', "mkdir: cannot create directory '/data/d': Read-only file system\n"],
    ['rm /data/log', "rm: cannot remove '/data/log': Read-only file system\n"],
  ])('%s fails while read-only, works otherwise', async (script, stderr) => {
    setNodeReadOnly(true);
    expect(await run(shell(), script)).toEqual({ stderr, exitCode: 1 });
    setNodeReadOnly(false);
    expect(await run(shell(), script)).toEqual({ stderr: '', exitCode: 0 });
  });

  it('reads, pipes and /dev/null still work', async () => {
    setNodeReadOnly(true);
    const bash = shell();
    expect((await bash.exec('cat /data/log /etc/hostname; echo quiet > /dev/null')).stdout).toBe('one\nweb\n');
    expect(() => assertWritable('/proc/1/fd/1')).not.toThrow();
    expect(() => assertWritable('/tmp/x')).toThrow(ReadOnlyFileSystemError);
  });

  it("follows the node's fault state file", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ctrd-faults-'));
    const stop = followNodeFaults(root);
    try {
      writeNodeFaults(root, { readonlyFilesystem: true });
      await waitFor('read-only', () => run(shell(), 'touch /x').then((r) => r.exitCode === 1) as Promise<boolean>, { timeoutMs: 10_000 });
      writeNodeFaults(root, {});
      await waitFor('writable', () => run(shell(), 'touch /x').then((r) => r.exitCode === 0) as Promise<boolean>, { timeoutMs: 10_000 });
    } finally {
      stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the memory cgroup OOM killer in the kernel log', () => {
  it("prints Linux's lines, the last one what NPD's kernel monitor matches (OOMKilling)", () => {
    const lines = oomKernelLines({ argv: ['/bin/sleep', '3600'], memoryBytes: 400 * 1024, limitBytes: 4096 });
    expect(lines).toEqual([
      'sleep invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0',
      'memory: usage 400kB, limit 4kB, failcnt 1',
      'Memory cgroup out of memory: Killed process 1 (sleep) total-vm:1936kB, anon-rss:400kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:44kB oom_score_adj:0',
    ]);
    // kernel-monitor.json's OOMKilling pattern.
    expect(lines[2]).toMatch(/Killed process \d+ (.+) total-vm:\d+kB, anon-rss:\d+kB, file-rss:\d+kB.*/);
  });
});
