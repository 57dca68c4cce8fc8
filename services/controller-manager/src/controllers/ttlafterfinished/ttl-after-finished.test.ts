import type { Job } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { ttlTimeLeft } from './decisions.js';
import { TtlAfterFinishedController } from './ttl-after-finished-controller.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function job(ttl: number | undefined, finished?: { type: 'Complete' | 'Failed'; at: string }): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'job-uid' },
    spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
    status: finished ? { conditions: [{ type: finished.type, status: 'True', lastTransitionTime: finished.at }] } : {},
  };
}

describe('ttl after finished', () => {
  it.each([
    ['no ttl', job(undefined, { type: 'Complete', at: '2025-12-31T23:59:00Z' }), undefined],
    ['not finished', job(10), undefined],
    ['completed 60 s ago, ttl 100', job(100, { type: 'Complete', at: '2025-12-31T23:59:00Z' }), 40_000],
    ['failed 60 s ago, ttl 30', job(30, { type: 'Failed', at: '2025-12-31T23:59:00Z' }), 0],
    ['ttl 0: at once', job(0, { type: 'Complete', at: '2026-01-01T00:00:00Z' }), 0],
  ])('%s', (_n, j, want) => {
    expect(ttlTimeLeft(j, NOW)).toBe(want);
  });

  it('deletes an expired job in the foreground, conditional on the version it read', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.jobs, job(30, { type: 'Complete', at: '2025-12-31T23:59:00Z' }));
    const c = new TtlAfterFinishedController(env.ctx);
    await env.sync();
    await c.sync('default/pi');
    expect(env.fake.actionLines()).toEqual(['get jobs default/pi', 'delete jobs default/pi']);
    expect(env.fake.peek(GVR.jobs, 'default', 'pi')).toBeUndefined();
    await env.stop();
  });

  it('leaves a job whose time has not come', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.jobs, job(3600, { type: 'Complete', at: '2025-12-31T23:59:00Z' }));
    const c = new TtlAfterFinishedController(env.ctx);
    await env.sync();
    await c.sync('default/pi');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });
});
