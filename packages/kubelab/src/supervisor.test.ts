import { describe, expect, it } from 'vitest';
import { RestartBackOff } from './supervisor.js';

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
