// systemd-unit as a container entrypoint: a process that runs one unit and
// outlives its main process until it is told to stop.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { parseRunUnitArgs, readJournal, readUnitState, sendControl } from '../src/index.js';

const BIN = fileURLToPath(new URL('../dist/bin/systemd-unit.js', import.meta.url));

describe('systemd-unit', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    [['kubelet'], 'usage: systemd-unit <unit> -- <command> [args...]'],
    [['sshd', '--', 'sshd'], 'unknown unit "sshd" (one of kubelet, containerd, kube-proxy, node-problem-detector, kube-network-policies)'],
  ])('refuses %j', (argv, message) => expect(() => parseRunUnitArgs(argv)).toThrow(message));

  it('keeps serving after kill -9 of the main process, starts it again, and stops it on SIGTERM', async () => {
    root = mkdtempSync(join(tmpdir(), 'unit-'));
    const script = "console.log('up'); setInterval(() => {}, 1000); process.on('SIGTERM', () => process.exit(0));";
    const mgr = spawn(process.execPath, [BIN, 'kubelet', '--', process.execPath, '-e', script], {
      env: { ...process.env, KUBELAB_NODE_ROOT: root, KUBELAB_NODE_NAME: 'node-1', KUBELAB_UNIT_CONTAINER: 'kubelet-1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    mgr.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await waitFor('active', async () => {
      const s = readUnitState(root, 'kubelet.service');
      return s?.activeState === 'active' ? s : undefined;
    });
    // The compose service whose container runs the manager, for systemctl's hint once it is gone.
    expect(first.container).toBe('kubelet-1');
    await waitFor('its line passed on', async () => (stderr.includes('up\n') ? true : undefined));
    process.kill(first.mainPid, 'SIGKILL');
    await waitFor('failed', async () => (readUnitState(root, 'kubelet.service')?.result === 'signal' ? true : undefined));
    expect(mgr.exitCode).toBeNull();

    expect(await sendControl(first.controlSocket, { verb: 'start' })).toEqual({ ok: true });
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'active', subState: 'running' });

    mgr.kill('SIGTERM');
    expect(await new Promise((r) => mgr.once('exit', (code) => r(code)))).toBe(0);
    expect(readUnitState(root, 'kubelet.service')).toMatchObject({ activeState: 'inactive', subState: 'dead', result: 'success' });
    expect((await readJournal(root, { identifiers: ['systemd'] })).map((r) => r.MESSAGE)).toEqual([
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.',
      'kubelet.service: Main process exited, code=killed, status=9/KILL',
      "kubelet.service: Failed with result 'signal'.",
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.',
      'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...',
      'kubelet.service: Deactivated successfully.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
    ]);
  });
});
