import { mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RestartBackOff, Supervisor } from './supervisor.js';

describe('RestartBackOff (the kubelet restarting a static pod)', () => {
  it('waits 10 s, doubling to 5 min, and starts over after a run of 10 min', () => {
    let now = 0;
    const b = new RestartBackOff(() => now);
    const delays = [];
    for (let i = 0; i < 7; i++) {
      delays.push(b.next('kube-scheduler'));
      now += 1000;
      b.started('kube-scheduler');
    }
    expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    expect(b.next('kube-controller-manager')).toBe(10_000);
    now += 600_000;
    expect(b.next('kube-scheduler')).toBe(10_000);
  });
});

describe('Supervisor', () => {
  it("runs a component at its spec's nice value (the hollow workers below the control plane), others at the runner's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelab-supervisor-'));
    const sup = new Supervisor({ stateDir: dir, command: () => ['sleep'], onExit: () => undefined });
    try {
      const niced = await sup.start({ name: 'hollow-node-1', service: 'kubemark', args: ['30'], nice: 5 });
      const plain = await sup.start({ name: 'apiserver', service: 'apiserver', args: ['30'] });
      // nice 5 is absolute; a runner already above it (and not root) may not lower it, and runs it at its own.
      const want = getPriority() <= 5 || process.getuid?.() === 0 ? 5 : getPriority();
      expect([getPriority(niced!.child.pid!), getPriority(plain!.child.pid!)]).toEqual([want, getPriority()]);
    } finally {
      await sup.stopAll(1000);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
