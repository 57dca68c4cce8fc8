import { describe, expect, it } from 'vitest';
import type { Condition } from '../types.js';
import { ConditionManager, RESYNC_PERIOD_MS } from './condition-manager.js';
import { conditionsPatch } from './conditions-patch.js';

const HEARTBEAT = 5 * 60_000;
const deadlock = (status: Condition['status'], reason: string, message: string, transition = 0): Condition => ({ type: 'KernelDeadlock', status, reason, message, transition });
const ok = deadlock('False', 'KernelHasNoDeadlock', 'kernel has no deadlock');

describe('condition manager (upstream k8sexporter/condition)', () => {
  it('syncs at once, then only on a change or a heartbeat', () => {
    const m = new ConditionManager(HEARTBEAT);
    m.updateCondition(ok);
    expect(m.tick(1000)).toEqual([ok]);
    m.updateCondition(ok);
    expect(m.tick(2000)).toBeUndefined();
    const bad = deadlock('True', 'DockerHung', 'INFO: task docker:20744 blocked for more than 120 seconds.', 2500);
    m.updateCondition(bad);
    expect(m.tick(3000)).toEqual([bad]);
    expect(m.tick(3000 + HEARTBEAT - 1)).toBeUndefined();
    expect(m.tick(3000 + HEARTBEAT)).toEqual([bad]);
  });

  it('retries a failed sync after the resync period', () => {
    const m = new ConditionManager(HEARTBEAT);
    m.updateCondition(ok);
    expect(m.tick(0)).toEqual([ok]);
    m.syncFailed();
    expect(m.tick(RESYNC_PERIOD_MS - 1)).toBeUndefined();
    expect(m.tick(RESYNC_PERIOD_MS)).toEqual([ok]);
    expect(m.tick(RESYNC_PERIOD_MS + 1000)).toBeUndefined();
  });

  it('writes every condition with the heartbeat as lastHeartbeatTime', () => {
    expect(conditionsPatch([deadlock('False', 'KernelHasNoDeadlock', 'kernel has no deadlock', Date.parse('2026-12-01T13:00:00Z'))], Date.parse('2026-12-01T13:33:15Z'))).toEqual({
      status: {
        conditions: [
          {
            type: 'KernelDeadlock',
            status: 'False',
            lastHeartbeatTime: '2026-12-01T13:33:15Z',
            lastTransitionTime: '2026-12-01T13:00:00Z',
            reason: 'KernelHasNoDeadlock',
            message: 'kernel has no deadlock',
          },
        ],
      },
    });
  });
});
