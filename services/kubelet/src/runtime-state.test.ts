import { describe, expect, it } from 'vitest';
import type { RuntimeCondition } from './kuberuntime/cri.js';
import { readiness } from './runtime-state.js';

const cond = (type: string, status: boolean, reason = '', message = ''): RuntimeCondition => ({ type, status, reason, message });

describe('readiness of the runtime Status conditions', () => {
  it.each<{ name: string; conds: RuntimeCondition[]; want: ReturnType<typeof readiness> }>([
    { name: 'both ready', conds: [cond('RuntimeReady', true), cond('NetworkReady', true)], want: {} },
    { name: 'RuntimeReady missing counts as not ready', conds: [cond('NetworkReady', true)], want: { runtime: { reason: 'RuntimeReadyMissing', message: 'runtime did not report RuntimeReady' } } },
    {
      name: 'RuntimeReady false carries its reason',
      conds: [cond('RuntimeReady', false, 'Broken', 'disk gone'), cond('NetworkReady', true)],
      want: { runtime: { reason: 'Broken', message: 'disk gone' } },
    },
    { name: 'NetworkReady missing is ready', conds: [cond('RuntimeReady', true)], want: {} },
    {
      name: 'NetworkReady false carries its reason',
      conds: [cond('RuntimeReady', true), cond('NetworkReady', false, 'NetworkPluginNotReady', 'cni config uninitialized')],
      want: { network: { reason: 'NetworkPluginNotReady', message: 'cni config uninitialized' } },
    },
  ])('$name', ({ conds, want }) => {
    expect(readiness(conds)).toEqual(want);
  });
});
