// Background jobs (`cmd &`), `wait`, `$!` and `kill` in the simulated shell:
// concurrency is shown by log order and wall time under the time scale.

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSandboxNetwork, sandboxPortKey } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import { startHarness, type Harness } from '../src/testing/harness.js';
import { startProcess } from '../src/testing/process.js';

/** `sh -c SCRIPT` as PID 1; `timeScale` 20 makes a container second 50 ms. */
const proc = (script: string, timeScale = 20) => startProcess(script, { timeScale });

/** Lets `ms` of wall time pass, for checks that something does NOT happen. */
const pass = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Timers for container sleeps that fire only when the test moves the time past them, in deadline order. */
class HandClock {
  private now = 0;
  private timers: { at: number; fn: () => void }[] = [];

  setTimeout(fn: () => void, ms: number): { stop(): void } {
    const t = { at: this.now + ms, fn };
    this.timers.push(t);
    return { stop: () => void (this.timers = this.timers.filter((x) => x !== t)) };
  }

  pending(): number {
    return this.timers.length;
  }

  advanceTo(ms: number): void {
    this.now = ms;
    const due = this.timers.filter((t) => t.at <= ms).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => t.at > ms);
    for (const t of due) t.fn();
  }
}

describe('background jobs in the main process', () => {
  it('starts a `&` statement concurrently; the job dies when PID 1 ends', async () => {
    // Scale 1: run in order, the sleep alone would take 2 s.
    const t0 = Date.now();
    const { p, log } = proc('(sleep 2; echo late; touch /tmp/late) & echo early', 1);
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(Date.now() - t0).toBeLessThan(1000);
    await pass(20);
    expect(log).toEqual(['stdout: early']);
    expect(await p.fs.exists('/tmp/late')).toBe(false);
  });

  it('`wait` waits for the jobs, `wait PID` returns its status, `$!` is its pid', async () => {
    const { p, log } = proc('(sleep 3; echo slow) & slow=$!; (sleep 1; echo fast; exit 3) & fast=$!; wait $fast; echo "fast=$? pid=$fast"; wait; echo "all done, slow was $slow"');
    expect(await p.exited).toMatchObject({ exitCode: 0 });
    expect(log).toEqual(['stdout: fast', 'stdout: fast=3 pid=3', 'stdout: slow', 'stdout: all done, slow was 2']);
  });

  it('runs jobs started in a loop side by side (finishing order follows their sleeps)', async () => {
    // The sleeps wait on a clock the test moves (on real timers, a job started
    // more than 50 ms late on a loaded machine finished out of order). Jobs
    // run one after another would never be asleep all three at once.
    const clock = new HandClock();
    const { p, log } = startProcess('for i in 3 1 2; do (sleep $i; echo "job $i") & done; echo started; wait; echo all', { timeScale: 20, timers: clock });
    await waitFor('all three jobs asleep', () => clock.pending() === 3 && log.includes('stdout: started'));
    // Container seconds 1, 2, 3 are 50, 100, 150 ms at time scale 20: each step wakes the job whose sleep ends first.
    for (const [ms, job] of [
      [50, 1],
      [100, 2],
      [150, 3],
    ] as const) {
      clock.advanceTo(ms);
      await waitFor(`job ${job}`, () => log.includes(`stdout: job ${job}`));
    }
    await p.exited;
    expect(log).toEqual(['stdout: started', 'stdout: job 1', 'stdout: job 2', 'stdout: job 3', 'stdout: all']);
  });

  it('gives a job the variables, functions and directory set before the &', async () => {
    const { p, log } = proc('cd /srv/app; NAME=web; greet() { echo "hi $1 from $NAME in $(pwd)"; }; greet a & wait');
    await p.exited;
    expect(log).toEqual(['stdout: hi a from web in /srv/app']);
  });

  it('reports wait and kill errors like sh', async () => {
    const { p, log } = proc('wait 99; echo "wait status $?"; kill 12345; echo "kill status $?"');
    await p.exited;
    expect(log).toEqual(['stderr: sh: wait: pid 99 is not a child of this shell', 'stdout: wait status 127', 'stderr: sh: kill: (12345) - No such process', 'stdout: kill status 1']);
  });

  it('kill ends a job with 128+signal', async () => {
    const { p, log } = proc('sleep 100 & a=$!; sleep 100 & b=$!; kill $a; kill -9 $b; wait $a; echo "a $?"; wait $b; echo "b $?"', 1);
    await p.exited;
    expect(log).toEqual(['stdout: a 143', 'stdout: b 137']);
  });

  it('runs & inside a nested sh -c; its wait waits for its own job', async () => {
    const { p, log } = proc(`sh -c '(sleep 2; echo slow) & (sleep 1; echo fast) & wait; echo nested done'; echo after`);
    await p.exited;
    expect(log).toEqual(['stdout: fast', 'stdout: slow', 'stdout: nested done', 'stdout: after']);
  });

  it('SIGKILL ends the jobs with PID 1', async () => {
    const { p, log } = proc('(while true; do echo tick; sleep 1; done) & echo main up; sleep 600');
    await waitFor('two ticks', () => log.filter((l) => l === 'stdout: tick').length >= 2);
    expect(log).toContain('stdout: main up');
    p.kill();
    expect(await p.exited).toMatchObject({ exitCode: 137 });
    const seen = log.length;
    await pass(150); // 3 container seconds
    expect(log.length).toBe(seen);
  });

  it('a TERM trap can kill and wait for the child it started (the classic PID 1 wrapper)', async () => {
    const { p, log } = proc('trap \'echo "stopping $child"; kill $child; wait $child; echo "child exited $?"; exit 0\' TERM; (while true; do sleep 1; done) & child=$!; echo up; wait $child');
    await waitFor('up', () => log.length >= 1);
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log).toEqual(['stdout: up', 'stdout: stopping 2', 'stdout: child exited 143']);
  });

  it('a TERM trap interrupts `wait`; the jobs end with the trap', async () => {
    const { p, log } = proc("trap 'echo bye; exit 0' TERM; (while true; do echo tick; sleep 1; done) & wait");
    await waitFor('a tick', () => log.length >= 1);
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log.at(-1)).toBe('stdout: bye');
    const seen = log.length;
    await pass(150);
    expect(log.length).toBe(seen);
  });
});

describe('background jobs in ExecSync', () => {
  it('streams the exec and its jobs in order and waits like sh', async () => {
    const { p, log } = proc('sleep 600');
    const out = await p.execSync(['sh', '-c', 'echo a; (sleep 1; echo b) & echo c; wait $!; echo "d $?"'], 5000);
    expect(out).toEqual({ stdout: 'a\nc\nb\nd 0\n', stderr: '', exitCode: 0, timedOut: false });
    expect(log).toEqual([]);
    // Inside $(...) a job stays synchronous: its output belongs to the substitution.
    expect((await p.execSync(['sh', '-c', 'x=$(echo sub & wait); echo "[$x]"'], 5000)).stdout).toBe('[sub]\n');
    p.kill();
  });

  it('returns at once with a job still running; the job outlives the exec, its output goes nowhere', async () => {
    const { p, log } = proc('sleep 600');
    const t0 = Date.now();
    const out = await p.execSync(['sh', '-c', '(sleep 1; echo gone; touch /tmp/from-exec) & echo started'], 5000);
    expect(out).toEqual({ stdout: 'started\n', stderr: '', exitCode: 0, timedOut: false });
    expect(Date.now() - t0).toBeLessThan(500);
    await waitFor('the job to touch /tmp/from-exec', () => p.fs.exists('/tmp/from-exec'));
    expect(log).toEqual([]);
    p.kill();
  });

  it('`kill 1` sends TERM to PID 1 (its trap runs); `kill -9 1` is ignored by a namespace init', async () => {
    const { p, log } = proc("trap 'echo bye; exit 0' TERM; echo up; while true; do sleep 1; done");
    await waitFor('up', () => log.length >= 1);
    expect(await p.execSync(['kill', '-9', '1'], 1000)).toMatchObject({ exitCode: 0, stderr: '' });
    expect(p.exit).toBeUndefined();
    expect(await p.execSync(['kill', '1'], 1000)).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log).toEqual(['stdout: up', 'stdout: bye']);
  });
});

describe('background jobs through the CRI', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.dispose();
  });

  const logLines = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^\S+ /, ''));

  it('nginx serves while a background sleep runs; the job removes /tmp/ready 30 s later', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 100 });
    const { podSandboxId, containerId, logFile } = await h.runPod('ready', 'nginx', {
      command: ['sh', '-c', "touch /tmp/ready; (sleep 30; rm -f /tmp/ready; echo not ready) & nginx -g 'daemon off;'"],
    });
    const t0 = Date.now();
    const probe = () => h.cri.rt.ExecSync({ containerId, cmd: ['cat', '/tmp/ready'], timeout: 1 });
    const addr = await waitFor('the mapped port of 80/TCP', async () => {
      const st = await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
      return decodeSandboxNetwork(st.info)?.ports[sandboxPortKey(80)];
    });
    const [host, port] = addr.split(':');
    const status = await new Promise<number>((resolve, reject) => {
      request({ host, port: Number(port), path: '/' }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect((await probe()).exitCode).toBe(0);
    const failed = await waitFor(
      '/tmp/ready to go',
      async () => {
        const r = await probe();
        return r.exitCode !== 0 ? r : undefined;
      },
      { timeoutMs: 5000 },
    );
    expect(((Date.now() - t0) * 100) / 1000).toBeGreaterThanOrEqual(28);
    expect(failed.stderr.toString()).toBe('cat: /tmp/ready: No such file or directory\n');
    expect(logLines(logFile)).toContain('stdout F not ready');
    await h.cri.rt.StopContainer({ containerId, timeout: 30 });
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('StopContainer kills the background jobs with PID 1', async () => {
    h = await startHarness({ podCidr: '10.244.1.0/24', timeScale: 50 });
    const { containerId, logFile } = await h.runPod('ticker', 'busybox', { command: ['sh', '-c', '(while true; do echo tick; sleep 1; done) & echo main up; sleep 600'] });
    await waitFor('two ticks', () => logLines(logFile).filter((l) => l === 'stdout F tick').length >= 2);
    await h.cri.rt.StopContainer({ containerId, timeout: 5 });
    expect((await h.cri.rt.ContainerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
    const seen = logLines(logFile).length;
    await pass(100); // 5 container seconds
    expect(logLines(logFile).length).toBe(seen);
    expect(new Set(logLines(logFile))).toEqual(new Set(['stdout F tick', 'stdout F main up']));
  });
});
