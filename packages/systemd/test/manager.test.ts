// The service manager with a real main process: its lines in the journal,
// the unit state through kill -9, start over the control socket, and stop.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { cgroupProcsPath, pidAlive, readCgroupProcs, readJournal, readUnitState, sendControl, ServiceManager, nodeUnit } from '../src/index.js';

// A main process that says hello, then one line a second until TERM.
const SCRIPT = `console.log('hello from ' + process.pid); console.error('on stderr'); setInterval(() => console.log('tick'), 1000); process.on('SIGTERM', () => process.exit(0));`;

describe('ServiceManager', () => {
  let root = '';
  let mgr: ServiceManager | undefined;
  afterEach(async () => {
    await mgr?.stop();
    await mgr?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('journals the main process, records kill -9 as failed (Result: signal), starts again over its control socket and stops cleanly', async () => {
    root = mkdtempSync(join(tmpdir(), 'sd-'));
    const output = new PassThrough();
    let passed = '';
    output.on('data', (d: Buffer) => (passed += d.toString()));
    mgr = new ServiceManager({ root, hostname: 'node-1', unit: nodeUnit('kubelet', '/usr/bin/kubelet'), command: [process.execPath, '-e', SCRIPT], output, stopTimeoutMs: 5000 });
    const sock = await mgr.listen();
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'inactive', subState: 'dead', controlSocket: sock });

    await mgr.start();
    const pid = mgr.child!.pid!;
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'active', subState: 'running', mainPid: pid });
    const lines = await waitFor('both lines', async () => {
      const r = await readJournal(root, { units: ['kubelet.service'] });
      return r.length >= 3 ? r : undefined;
    });
    expect(lines.map((r) => [r.SYSLOG_IDENTIFIER, r._PID, r.MESSAGE]).sort()).toEqual(
      [
        ['systemd', String(process.pid), 'Started kubelet.service - kubelet: The Kubernetes Node Agent.'],
        ['kubelet', String(pid), `hello from ${pid}`],
        ['kubelet', String(pid), 'on stderr'],
      ].sort(),
    );
    expect(passed).toContain(`hello from ${pid}\n`);

    const exited = new Promise((r) => mgr!.once('exit', (code, signal, requested) => r([code, signal, requested])));
    process.kill(pid, 'SIGKILL');
    expect(await exited).toEqual([null, 'SIGKILL', false]);
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({
      activeState: 'failed',
      subState: 'failed',
      result: 'signal',
      mainPid: 0,
      execMainPid: pid,
      execMainCode: 'killed',
      execMainStatus: 9,
    });
    const systemd = (await readJournal(root, { identifiers: ['systemd'] })).map((r) => r.MESSAGE);
    expect(systemd.slice(-2)).toEqual(['kubelet.service: Main process exited, code=killed, status=9/KILL', "kubelet.service: Failed with result 'signal'."]);

    expect(await sendControl(sock, { verb: 'start' })).toEqual({ ok: true });
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'active', subState: 'running', result: 'success', mainPid: mgr.child!.pid });

    expect(await sendControl(sock, { verb: 'stop' })).toEqual({ ok: true });
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'inactive', subState: 'dead', result: 'success', mainPid: 0 });
    expect((await readJournal(root, { identifiers: ['systemd'] })).map((r) => r.MESSAGE).slice(-4)).toEqual([
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.',
      'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...',
      'kubelet.service: Deactivated successfully.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
    ]);
    expect(await sendControl(sock, { verb: 'reload' as never })).toEqual({ ok: false, error: 'unknown verb "reload"' });
  });

  it('a missing executable fails with status 203/EXEC', async () => {
    root = mkdtempSync(join(tmpdir(), 'sd-'));
    mgr = new ServiceManager({ root, hostname: 'node-1', unit: nodeUnit('kubelet', '/usr/bin/kubelet'), command: [join(root, 'no-such-kubelet')], output: new PassThrough() });
    await mgr.start();
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'failed', result: 'exit-code', execMainCode: 'exited', execMainStatus: 203 });
    expect((await readJournal(root, { identifiers: ['systemd'] })).map((r) => r.MESSAGE)).toEqual([
      'kubelet.service: Main process exited, code=exited, status=203/EXEC',
      "kubelet.service: Failed with result 'exit-code'.",
      'Failed to start kubelet.service - kubelet: The Kubernetes Node Agent.',
    ]);
  });

  it('KillMode=process (containerd): a restart leaves a daemon that joined the cgroup; the node shutting down ends it', async () => {
    root = mkdtempSync(join(tmpdir(), 'sd-'));
    // The main process starts a detached daemon (a shim) that joins the unit's cgroup, and names its pid.
    const main = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['-e', ${JSON.stringify(
      "require('node:fs').appendFileSync(process.env.KUBELAB_CGROUP_PROCS, process.pid + '\\n'); setInterval(() => {}, 1000);",
    )}], { detached: true, stdio: 'ignore' }); c.unref(); console.log('daemon ' + c.pid); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);`;
    const output = new PassThrough();
    let passed = '';
    output.on('data', (d: Buffer) => (passed += d.toString()));
    mgr = new ServiceManager({ root, hostname: 'node-1', unit: nodeUnit('containerd', '/usr/bin/containerd'), command: [process.execPath, '-e', main], output, stopTimeoutMs: 5000 });
    await mgr.start();
    const pid = Number(await waitFor('the daemon', async () => /daemon (\d+)/.exec(passed)?.[1]));
    const procs = cgroupProcsPath(root, 'containerd.service');
    await waitFor('the daemon in the cgroup', async () => readCgroupProcs(procs).includes(pid));
    await mgr.restart();
    expect(pidAlive(pid)).toBe(true);
    expect(readCgroupProcs(procs)).toEqual(expect.arrayContaining([pid, mgr.child!.pid!]));
    await mgr.shutdown(2000);
    await waitFor('the daemon to be gone', async () => !pidAlive(pid));
    expect(readCgroupProcs(procs)).toEqual([]);
  });
});
