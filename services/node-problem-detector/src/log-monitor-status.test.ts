import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_DIR, parseSystemLogMonitorConfig } from './config.js';
import { compilePattern, LogBuffer } from './log-buffer.js';
import { LogMonitorState } from './system-log-monitor.js';
import type { Status } from './types.js';

const config = (name: string) => parseSystemLogMonitorConfig(readFileSync(join(DEFAULT_CONFIG_DIR, name), 'utf8'), name);
const T0 = Date.parse('2026-12-01T13:33:15Z');

/** Feeds lines to a fresh monitor of a default config; returns every status it reported. */
function feed(name: string, lines: string[]): { statuses: Status[]; state: LogMonitorState } {
  const state = new LogMonitorState(config(name), T0);
  const statuses = lines.flatMap((message, i) => state.parseLine({ timestamp: T0 + i * 1000, message }));
  return { statuses, state };
}

describe('kernel monitor (upstream config/kernel-monitor.json)', () => {
  it.each([
    ['INFO: task tar:2 blocked for more than 120 seconds.', 'TaskHung'],
    ['INFO: task umount.aufs:21568 blocked for more than 120 seconds.', 'TaskHung'],
    ['Killed process 1012 (heapster) total-vm:327128kB, anon-rss:306328kB, file-rss:11132kB, shmem-rss:12345kB', 'OOMKilling'],
    ['BUG: unable to handle kernel NULL pointer dereference at 0000000000000008', 'KernelOops'],
    ['divide error: 0000 [#1] SMP', 'KernelOops'],
    ['EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: comm ls: reading directory lblock 0', 'Ext4Error'],
    ['EXT4-fs warning (device sda1): ext4_dx_add_entry:2006: Directory index full!', 'Ext4Warning'],
    ['Buffer I/O error on dev sda1, logical block 0, async page read', 'IOError'],
    ['unregister_netdevice: waiting for lo to become free. Usage count = 1', 'UnregisterNetDevice'],
  ])('%s → a Warning %s event with the line as message, no condition change', (line, reason) => {
    const { statuses } = feed('kernel-monitor.json', [line]);
    expect(statuses.map((s) => s.events)).toEqual([[{ severity: 'warn', timestamp: T0, reason, message: line }]]);
    expect(statuses[0]!.source).toBe('kernel-monitor');
    expect(statuses[0]!.conditions.every((c) => c.status === 'False')).toBe(true);
  });

  it('starts with upstream default conditions, all False', () => {
    const { state } = feed('kernel-monitor.json', []);
    expect(state.initialStatus().conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['KernelDeadlock', 'False', 'KernelHasNoDeadlock', 'kernel has no deadlock'],
      ['XfsShutdown', 'False', 'XfsHasNotShutDown', 'XFS has not shutdown'],
      ['CperHardwareErrorFatal', 'False', 'CperHardwareHasNoFatalError', 'UEFI CPER has no fatal error'],
    ]);
  });

  it('a hung docker task: TaskHung event, and KernelDeadlock True (DockerHung) once with its change event', () => {
    const line = 'INFO: task docker:20744 blocked for more than 120 seconds.';
    const { statuses, state } = feed('kernel-monitor.json', [line, line]);
    expect(statuses.flatMap((s) => s.events.map((e) => [e.severity, e.reason, e.message]))).toEqual([
      ['warn', 'TaskHung', line],
      ['warn', 'DockerHung', `Node condition KernelDeadlock is now: True, reason: DockerHung, message: "${line}"`],
      ['warn', 'TaskHung', line],
    ]);
    const deadlock = state.conditions.find((c) => c.type === 'KernelDeadlock')!;
    expect(deadlock).toEqual({ type: 'KernelDeadlock', status: 'True', reason: 'DockerHung', message: line, transition: T0 });
  });

  it('XFS shutting down sets XfsShutdown', () => {
    const { state } = feed('kernel-monitor.json', ['XFS (sdb1): Corruption of in-memory data detected. Shutting down filesystem']);
    expect(state.conditions.find((c) => c.type === 'XfsShutdown')).toMatchObject({ status: 'True', reason: 'XfsHasShutdown' });
  });
});

describe('readonly monitor (upstream config/readonly-monitor.json)', () => {
  it('Remounting filesystem read-only sets ReadonlyFilesystem True with the line as message', () => {
    const line = 'EXT4-fs (sda1): Remounting filesystem read-only';
    const { statuses, state } = feed('readonly-monitor.json', [line]);
    expect(statuses[0]!.events).toEqual([
      { severity: 'warn', timestamp: T0, reason: 'FilesystemIsReadOnly', message: `Node condition ReadonlyFilesystem is now: True, reason: FilesystemIsReadOnly, message: "${line}"` },
    ]);
    expect(state.conditions).toEqual([{ type: 'ReadonlyFilesystem', status: 'True', reason: 'FilesystemIsReadOnly', message: line, transition: T0 }]);
  });
});

describe('systemd monitor (upstream config/systemd-monitor.json)', () => {
  it.each([
    ['Started kubelet.service - kubelet: The Kubernetes Node Agent.', 'KubeletStart'],
    ['Started Kubernetes kubelet.', 'KubeletStart'],
    ['Starting containerd.service - containerd container runtime...', 'ContainerdStart'],
  ])('%s → %s', (line, reason) => {
    expect(feed('systemd-monitor.json', [line]).statuses.flatMap((s) => s.events.map((e) => e.reason))).toEqual([reason]);
  });
});

describe('multi-line patterns (the LogBuffer)', () => {
  // The OOM rule of upstream's deployment config spans the kernel's two lines.
  const oom = compilePattern('Kill process \\d+ (.+) score \\d+ or sacrifice child\\nKilled process \\d+ (.+) total-vm:\\d+kB, anon-rss:\\d+kB, file-rss:\\d+kB.*');
  const first = 'Out of memory: Kill process 1012 (heapster) score 215 or sacrifice child';
  const second = 'Killed process 1012 (heapster) total-vm:327128kB, anon-rss:306328kB, file-rss:11132kB';

  it('matches when the second line arrives, covering both whole lines', () => {
    const b = new LogBuffer(10);
    b.push({ timestamp: 1, message: first });
    expect(b.match(oom)).toEqual([]);
    b.push({ timestamp: 2, message: second });
    expect(b.match(oom).map((l) => l.message)).toEqual([first, second]);
  });

  it('does not match when a line comes between them, nor once a newer line arrives', () => {
    const b = new LogBuffer(10);
    for (const m of [first, 'something else', second]) b.push({ timestamp: 1, message: m });
    expect(b.match(oom)).toEqual([]);
    const c = new LogBuffer(10);
    for (const m of [first, second, 'later']) c.push({ timestamp: 1, message: m });
    expect(c.match(oom)).toEqual([]);
  });

  it('forgets lines older than its size', () => {
    const b = new LogBuffer(2);
    for (const m of ['a', 'b', 'c']) b.push({ timestamp: 1, message: m });
    expect(b.match(compilePattern('a\\nb\\nc'))).toEqual([]);
    expect(b.match(compilePattern('b\\nc')).map((l) => l.message)).toEqual(['b', 'c']);
  });
});

describe('single-line patterns match the newest line only (upstream lastLineOnly)', () => {
  const all = ['kernel-monitor.json', 'readonly-monitor.json', 'systemd-monitor.json'].flatMap((f) => config(f).rules.map((r) => r.pattern));

  it('every default single-line pattern is recognised; the two-line OOM rule and risky syntax are not', () => {
    expect(all.filter((p) => !compilePattern(p).lastLineOnly)).toEqual([]);
    for (const p of ['Kill process \\d+\\nKilled', 'a\\sb', '[^x]+', '^task', 'x$y', '(?<=a)b', 'a\\x0ab', 'a\\Wb', 'a\nb']) expect([p, compilePattern(p).lastLineOnly]).toEqual([p, false]);
  });

  it('gives what matching the joined buffer gives', () => {
    const lines = ['INFO: task tar:2 blocked for more than 120 seconds.', 'EXT4-fs (sda1): Remounting filesystem read-only', 'Started kubelet.service - kubelet: The Kubernetes Node Agent.', 'noise'];
    for (const expr of all) {
      const fast = compilePattern(expr);
      const slow = { ...fast, lastLineOnly: false };
      const b = new LogBuffer(3);
      for (const message of lines) {
        b.push({ timestamp: 0, message });
        expect([expr, message, b.match(fast)]).toEqual([expr, message, b.match(slow)]);
      }
    }
  });
});
