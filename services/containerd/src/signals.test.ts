// TERM to a container's PID 1 when that is `sh` (dash, busybox ash): a trap
// runs once the foreground command is done, or at once in `wait`; the script
// goes on unless the action exits; with no trap the signal is ignored (a PID
// namespace's init gets no default action), so only the KILL ends it.

import { describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { startProcess } from './testing/process.js';

/** Lets `ms` of wall time pass, for checks that something does NOT happen. */
const pass = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Container seconds since `t0` (wall ms) at `scale`. */
const containerSeconds = (t0: number, scale: number) => ((Date.now() - t0) * scale) / 1000;

describe('a TERM trap in sh as PID 1', () => {
  it('waits for the foreground command to finish, then runs and exits with its status', async () => {
    const { p, log } = startProcess("trap 'echo trapped; exit 3' TERM; echo up; sleep 4; echo 'after sleep'");
    await waitFor('up', () => log.length >= 1);
    const t0 = Date.now();
    p.term();
    await pass(100); // 2 container seconds into the sleep
    expect(p.exit).toBeUndefined();
    expect(await p.exited).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(containerSeconds(t0, 20)).toBeGreaterThanOrEqual(3);
    expect(log).toEqual(['stdout: up', 'stdout: trapped']);
  });

  it('lets the script go on after the command when the action does not exit', async () => {
    const { p, log } = startProcess("trap 'echo \"got TERM\"' TERM; echo up; sleep 2; echo 'still here'; exit 4");
    await waitFor('up', () => log.length >= 1);
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 4, reason: 'Error' });
    expect(log).toEqual(['stdout: up', 'stdout: got TERM', 'stdout: still here']);
  });

  it("`trap 'exit 0' TERM; while true; do sleep 1; done` exits 0 within about a second", async () => {
    // Scale 5: a container second is 200 ms, well above timer jitter.
    const { p } = startProcess("trap 'exit 0' TERM; while true; do sleep 1; done", { timeScale: 5 });
    await pass(300);
    const t0 = Date.now();
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(containerSeconds(t0, 5)).toBeLessThan(2);
  });

  it('runs in the shell itself: a variable the action sets ends the loop', async () => {
    const { p, log } = startProcess(`trap 'stop=1' TERM; echo up; while [ -z "$stop" ]; do sleep 1; done; echo "stopped cleanly"`);
    await waitFor('up', () => log.length >= 1);
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log).toEqual(['stdout: up', 'stdout: stopped cleanly']);
  });

  it('cuts `wait` short with 143, runs at once, and the script goes on', async () => {
    const { p, log } = startProcess(`trap 'echo trapped' TERM; sleep 600 & echo up; wait $!; echo "wait returned $?"`);
    await waitFor('up', () => log.length >= 1);
    const t0 = Date.now();
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(containerSeconds(t0, 20)).toBeLessThan(10);
    expect(log).toEqual(['stdout: up', 'stdout: trapped', 'stdout: wait returned 143']);
  });

  it('comes again for a second TERM', async () => {
    const { p, log } = startProcess(`n=0; trap 'n=$((n+1)); echo "TERM $n"; [ $n -ge 2 ] && exit 0' TERM; echo up; while true; do sleep 1; done`);
    await waitFor('up', () => log.length >= 1);
    p.term();
    await waitFor('the first trap', () => log.length >= 2);
    expect(p.exit).toBeUndefined();
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log).toEqual(['stdout: up', 'stdout: TERM 1', 'stdout: TERM 2']);
  });

  it('leaves $? and set -e as sh has them', async () => {
    const { p, log } = startProcess(
      `trap 'echo never' TERM; false; echo "status $?"; set -e; false && true; echo survived; ! true; echo negated; if false; then :; fi; echo "if $?"; false; echo unreachable`,
    );
    expect(await p.exited).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(log).toEqual(['stdout: status 1', 'stdout: survived', 'stdout: negated', 'stdout: if 0']);
  });

  it("prints as dash does; `trap '' TERM` ignores the signal and `trap - TERM` restores PID 1's default (ignored too)", async () => {
    for (const reset of ["trap '' TERM", 'trap - TERM', 'trap 15']) {
      const { p, log } = startProcess(`trap 'echo bye; exit 0' TERM; trap; ${reset}; echo up; while true; do sleep 1; done`);
      await waitFor('up', () => log.length >= 2);
      p.term();
      await pass(150); // 3 container seconds
      expect(p.exit).toBeUndefined();
      p.kill();
      expect(await p.exited).toMatchObject({ exitCode: 137, reason: 'Error' });
      expect(log).toEqual(["stdout: trap -- 'echo bye; exit 0' TERM", 'stdout: up']);
    }
  });

  it("is the script file's when PID 1 is `sh FILE ARG`", async () => {
    const script = `#!/bin/sh\ntrap 'echo "bye $1"; exit 0' TERM\necho "up $1"\nwhile true; do sleep 1; done\n`;
    const { p, log } = startProcess(['/bin/sh', 'run.sh', 'web'], { files: { '/run.sh': script } });
    await waitFor('up', () => log.length >= 1);
    p.term();
    expect(await p.exited).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(log).toEqual(['stdout: up web', 'stdout: bye web']);
  });

  it("is not PID 1's when an exec's shell sets it", async () => {
    const { p, log } = startProcess('echo up; while true; do sleep 1; done');
    await waitFor('up', () => log.length >= 1);
    expect(await p.execSync(['sh', '-c', "trap 'exit 0' TERM; trap"], 1000)).toMatchObject({ stdout: "trap -- 'exit 0' TERM\n", exitCode: 0 });
    p.term();
    await pass(150);
    expect(p.exit).toBeUndefined();
    p.kill();
  });
});

describe('sh as PID 1 without a trap', () => {
  it('ignores TERM, even between commands; KILL ends it with 137', async () => {
    const { p, log } = startProcess('touch /tmp/healthy; sleep 1; rm /tmp/healthy; echo "probe target gone"; sleep 600');
    p.term();
    await waitFor('the script to go on past TERM', () => log.length >= 1);
    expect(log).toEqual(['stdout: probe target gone']);
    p.term();
    await pass(150);
    expect(p.exit).toBeUndefined();
    p.kill();
    expect(await p.exited).toMatchObject({ exitCode: 137, reason: 'Error' });
  });
});
