import { describe, expect, it } from 'vitest';
import { StartOrder } from './order.js';

/** Feeds `arrivals` ([arrival ms, start ms, name]) through a StartOrder, releasing at each arrival and at the end. */
function run(holdMs: number, arrivals: [number, number, string][], endAt: number): string[] {
  const out: string[] = [];
  const o = new StartOrder<string>(holdMs, (name, late) => out.push(late ? `${name} (late)` : name));
  for (const [arrival, start, name] of arrivals) {
    o.release(arrival);
    o.push(start, name);
  }
  o.release(endAt);
  return out;
}

describe('StartOrder', () => {
  const cases: { name: string; hold: number; arrivals: [number, number, string][]; endAt: number; want: string[] }[] = [
    {
      name: 'records arriving in start order come out unchanged',
      hold: 250,
      arrivals: [
        [10, 0, 'RunPodSandbox'],
        [30, 20, 'CreateContainer'],
        [50, 40, 'StartContainer'],
      ],
      endAt: 1000,
      want: ['RunPodSandbox', 'CreateContainer', 'StartContainer'],
    },
    {
      name: 'a slow call that ends after a later one is printed first (it started first)',
      hold: 250,
      arrivals: [
        [60, 50, 'ContainerStatus'],
        [200, 0, 'StopContainer'],
        [210, 205, 'RemoveContainer'],
      ],
      endAt: 1000,
      want: ['StopContainer', 'ContainerStatus', 'RemoveContainer'],
    },
    {
      name: 'a call longer than the window is printed when it arrives, marked late',
      hold: 250,
      arrivals: [
        [60, 50, 'ContainerStatus'],
        [2000, 0, 'StopContainer'],
      ],
      endAt: 3000,
      want: ['ContainerStatus', 'StopContainer (late)'],
    },
    {
      name: 'equal start times keep arrival order',
      hold: 250,
      arrivals: [
        [5, 0, 'a'],
        [6, 0, 'b'],
        [7, 0, 'c'],
      ],
      endAt: 1000,
      want: ['a', 'b', 'c'],
    },
    {
      name: 'nothing is let out before its window has passed',
      hold: 250,
      arrivals: [[10, 0, 'RunPodSandbox']],
      endAt: 200,
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(run(c.hold, c.arrivals, c.endAt)).toEqual(c.want);
    });
  }

  it('drain lets everything out in start order', () => {
    const out: string[] = [];
    const o = new StartOrder<string>(250, (s) => out.push(s));
    o.push(30, 'b');
    o.push(10, 'a');
    expect(o.size).toBe(2);
    o.drain();
    expect(out).toEqual(['a', 'b']);
    expect(o.size).toBe(0);
  });
});
