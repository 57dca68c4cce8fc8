// The node tools against a real unit: a ServiceManager running a small main
// process under a temporary node root, read and driven as a user would.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { appendJournal, nodeUnit, realtimeNow, ServiceManager } from '@kubelab/systemd';
import { journalctl, ps, systemctl, type Io, type NodeEnv } from '../src/index.js';

const SCRIPT = `console.log('I1201 13:33:15.123456 ' + process.pid + ' kubelet.go:1] "Starting kubelet"'); setInterval(() => {}, 1000); process.on('SIGTERM', () => process.exit(0));`;

function capture(signal?: AbortSignal): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (s) => (out += s), err: (s) => (err += s), ...(signal ? { signal } : {}), stdout: () => out, stderr: () => err };
}

describe('systemctl, journalctl and ps on a node with one unit', () => {
  let root = '';
  let mgr: ServiceManager | undefined;
  afterEach(async () => {
    await mgr?.stop();
    await mgr?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows, stops and starts the unit; follows its journal; lists its process', async () => {
    root = mkdtempSync(join(tmpdir(), 'node-'));
    const env: NodeEnv = { root, name: 'node-1', unitProcessesOnly: true };
    mgr = new ServiceManager({
      root,
      hostname: 'node-1',
      unit: nodeUnit('kubelet', `${process.execPath} -e <script>`),
      command: [process.execPath, '-e', SCRIPT],
      output: new PassThrough(),
      stopTimeoutMs: 5000,
    });
    await mgr.listen();
    await mgr.start();
    const pid = mgr.child!.pid!;
    await waitFor('the first line', async () => {
      const io = capture();
      await journalctl(['-u', 'kubelet', '-o', 'cat'], io, env);
      return io.stdout().includes('Starting kubelet') ? true : undefined;
    });

    const status = capture();
    expect(await systemctl(['status', 'kubelet'], status, env)).toBe(0);
    expect(status.stdout()).toMatch(new RegExp(`^   Main PID: ${pid} \\(node\\)$`, 'm'));
    expect(status.stdout()).toMatch(new RegExp(`^             └─${pid} ${process.execPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} -e `, 'm'));
    expect(status.stdout()).toMatch(/^\w{3} \d\d \d\d:\d\d:\d\d node-1 kubelet\[\d+\]: I1201 13:33:15\.123456 \d+ kubelet\.go:1\] "Starting kubelet"$/m);

    const show = capture();
    await systemctl(['show', 'kubelet', '-p', 'ActiveState,SubState,MainPID'], show, env);
    expect(show.stdout()).toBe(`ActiveState=active\nSubState=running\nMainPID=${pid}\n`);

    const table = capture();
    await ps(['-ef'], table, env);
    expect(table.stdout().split('\n')[0]).toBe('UID          PID    PPID  C STIME TTY          TIME CMD');
    expect(table.stdout()).toMatch(new RegExp(`^\\S+\\s+${pid}\\s+${process.pid}\\s`, 'm'));
    expect(table.stdout().trim().split('\n')).toHaveLength(2); // the unit's process only, not the host's

    // journalctl -f prints the last lines, then what is appended.
    const ac = new AbortController();
    const follow = capture(ac.signal);
    const done = journalctl(['-f', '-u', 'kubelet', '-o', 'cat'], follow, env);
    await waitFor('the tail', async () => (follow.stdout().includes('Starting kubelet') ? true : undefined));
    appendJournal(root, {
      __REALTIME_TIMESTAMP: realtimeNow(),
      _HOSTNAME: 'node-1',
      _PID: String(pid),
      _SYSTEMD_UNIT: 'kubelet.service',
      SYSLOG_IDENTIFIER: 'kubelet',
      PRIORITY: '6',
      _TRANSPORT: 'stdout',
      MESSAGE: 'a new line',
    });
    await waitFor('the new line', async () => (follow.stdout().includes('a new line\n') ? true : undefined));
    ac.abort();
    expect(await done).toBe(0);

    const stop = capture();
    expect(await systemctl(['stop', 'kubelet'], stop, env)).toBe(0);
    const dead = capture();
    expect(await systemctl(['status', 'kubelet', '-n', '3'], dead, env)).toBe(3);
    expect(dead.stdout().split('\n')[2]).toMatch(/^     Active: inactive \(dead\) since /);
    expect(
      dead
        .stdout()
        .trimEnd()
        .split('\n')
        .slice(-3)
        .map((l) => l.replace(/^.*?systemd\[\d+\]: /, '')),
    ).toEqual(['Stopping kubelet.service - kubelet: The Kubernetes Node Agent...', 'kubelet.service: Deactivated successfully.', 'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.']);
    const active = capture();
    expect(await systemctl(['is-active', 'kubelet'], active, env)).toBe(3);
    expect(active.stdout()).toBe('inactive\n');

    expect(await systemctl(['start', 'kubelet'], capture(), env)).toBe(0);
    expect(mgr.state.activeState).toBe('active');
  });

  it.each<[string[], number, string, string]>([
    [['status', 'foo'], 4, '', 'Unit foo.service could not be found.\n'],
    [['start', 'foo'], 5, '', 'Failed to start foo.service: Unit foo.service not found.\n'],
    [['stop', 'foo'], 5, '', 'Failed to stop foo.service: Unit foo.service not loaded.\n'],
    [['frobnicate'], 1, '', "Unknown command verb 'frobnicate'.\n"],
    [['--bogus'], 1, '', "systemctl: unrecognized option '--bogus'\n"],
  ])('systemctl %j', async (argv, code, stdout, stderr) => {
    root = mkdtempSync(join(tmpdir(), 'node-'));
    const io = capture();
    expect(await systemctl(argv, io, { root, name: 'node-1', unitProcessesOnly: true })).toBe(code);
    expect([io.stdout(), io.stderr()]).toEqual([stdout, stderr]);
  });

  it('journalctl on an empty journal says so', async () => {
    root = mkdtempSync(join(tmpdir(), 'node-'));
    const io = capture();
    expect(await journalctl(['-u', 'kubelet', '--no-pager'], io, { root, name: 'node-1', unitProcessesOnly: true })).toBe(0);
    expect(io.stdout()).toBe('-- No entries --\n');
  });
});
