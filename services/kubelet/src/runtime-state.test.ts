import { createLogger } from '@kubelab/component-base';
import { FakeClock } from '@kubelab/client/testing';
import { describe, expect, it } from 'vitest';
import { CriClientError, type RuntimeCondition } from './kuberuntime/cri.js';
import { RuntimeState, readiness } from './runtime-state.js';

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

describe('RuntimeState.update with the runtime gone', () => {
  it('logs upstream\'s ErrorS "Container runtime sanity check failed" with the error as grpc-go prints it', async () => {
    const lines: string[] = [];
    const gone = new CriClientError('Unavailable', 'connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"');
    const rs = new RuntimeState(
      { version: () => Promise.reject(gone), status: () => Promise.reject(gone) },
      new FakeClock(),
      createLogger({ component: 'kubelet', format: 'text', style: 'klog', write: (l) => void lines.push(l) }),
    );
    await rs.update();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^E\d{4} [\d:.]+ +\d+ [\w.-]+:\d+\] "Container runtime sanity check failed" err="rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix \/run\/containerd\/containerd.sock: connect: no such file or directory\\""$/,
    );
  });
});
