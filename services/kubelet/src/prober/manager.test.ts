import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import { ProberManager } from './manager.js';

const pod: Pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'busybox:1.36',
        livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] } },
        startupProbe: { exec: { command: ['true'] } },
        readinessProbe: { exec: { command: ['true'] } },
      },
    ],
  },
};

describe('ProberManager', () => {
  it('a terminating pod stops its liveness and startup workers but keeps readiness until removePod', () => {
    const m = new ProberManager({ probe: async () => ({ result: 'Success' }) }, { getPodStatus: () => undefined }, new FakeClock(), false);
    m.addPod(pod);
    expect(m.workerCount).toBe(3);
    const liveness = m.worker('u1', 'app', 'Liveness')!;
    m.stopLivenessAndStartup('u1');
    expect(liveness.isStopped).toBe(true);
    expect(m.worker('u1', 'app', 'Liveness')).toBeUndefined();
    expect(m.worker('u1', 'app', 'Startup')).toBeUndefined();
    expect(m.worker('u1', 'app', 'Readiness')?.isStopped).toBe(false);
    m.removePod('u1');
    expect(m.workerCount).toBe(0);
  });
});
