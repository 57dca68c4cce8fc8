import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CGROUP_PROCS_ENV, cgroupProcsPath, readCgroupProcs, writeCgroupProcs } from './cgroup.js';

const root = mkdtempSync(join(tmpdir(), 'kubelab-cgroup-'));
const path = cgroupProcsPath(root, 'containerd.service');
const other = cgroupProcsPath(root, 'kubelet.service');
const children: ChildProcess[] = [];

/** A process that lives until the suite ends, started with `env` added to this one's. */
async function sleeper(env: Record<string, string>): Promise<number> {
  const child = spawn('sleep', ['60'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child.pid!;
}

/** A pid that no process has (one that ended). */
async function endedPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('a unit cgroup.procs file', () => {
  it('counts as members only live processes started in that cgroup: an ended one, or one whose pid now belongs to another, get no signal', async () => {
    const member = await sleeper({ [CGROUP_PROCS_ENV]: path });
    // What a dead member's reused pid looks like: a live process that never was in the unit.
    const stranger = await sleeper({});
    const elsewhere = await sleeper({ [CGROUP_PROCS_ENV]: other });
    const ended = await endedPid();
    writeCgroupProcs(path, [member]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}${stranger}\n${elsewhere}\n${ended}\nnot-a-pid\n${member}\n`);
    expect(readCgroupProcs(path)).toEqual([member]);
    // A rewrite drops what is not a member, so the file does not grow with the unit's restarts.
    expect(writeCgroupProcs(path)).toEqual([member]);
    expect(readFileSync(path, 'utf8')).toBe(`${member}\n`);
  });

  it('reads a missing file as no members', () => {
    expect(readCgroupProcs(join(root, 'none', 'cgroup.procs'))).toEqual([]);
  });
});
