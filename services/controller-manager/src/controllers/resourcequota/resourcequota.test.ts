import type { Pod, ResourceQuota } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { desiredQuotaStatus, usageChanged } from './decisions.js';
import { ResourceQuotaController } from './resource-quota-controller.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const pod = (name: string, cpu?: string, phase: 'Running' | 'Succeeded' = 'Running'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { containers: [{ name: 'c', image: 'x', ...(cpu ? { resources: { requests: { cpu }, limits: { cpu } } } : {}) }] },
  status: { phase },
});
const quota = (hard: Record<string, string>, status?: ResourceQuota['status']): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'default', uid: 'q-uid' },
  spec: { hard },
  ...(status ? { status } : {}),
});
const pods = (...items: Pod[]) => [{ group: '', resource: 'pods', items }];

describe('the status a quota should have (syncResourceQuota)', () => {
  it.each<[string, ResourceQuota, Pod[], ResourceQuota['status'] | undefined]>([
    ['a new quota gets hard and a count', quota({ pods: '2', 'requests.cpu': '1' }), [pod('a', '100m')], { hard: { pods: '2', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '100m' } }],
    ['nothing in the namespace counts 0', quota({ pods: '2', 'limits.cpu': '2' }), [], { hard: { pods: '2', 'limits.cpu': '2' }, used: { 'limits.cpu': '0', pods: '0' } }],
    ['a terminal pod is given back', quota({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '2' } }), [pod('a'), pod('done', undefined, 'Succeeded')], { hard: { pods: '2' }, used: { pods: '1' } }],
    [
      'a changed spec.hard is copied, used masked to it',
      quota({ pods: '3' }, { hard: { pods: '2', secrets: '1' }, used: { pods: '1', secrets: '0' } }),
      [pod('a')],
      { hard: { pods: '3' }, used: { pods: '1' } },
    ],
    ['equal quantities are not rewritten', quota({ 'requests.cpu': '1' }, { hard: { 'requests.cpu': '1000m' }, used: { 'requests.cpu': '0.1' } }), [pod('a', '100m')], undefined],
  ])('%s', (_n, rq, items, want) => {
    expect(desiredQuotaStatus(rq, pods(...items), NOW)).toEqual(want);
  });

  it('a pod update matters only when its usage changes', () => {
    expect(usageChanged('', 'pods', pod('a', '1'), { ...pod('a', '1'), metadata: { ...pod('a').metadata, labels: { x: 'y' } } }, NOW)).toBe(false);
    expect(usageChanged('', 'pods', pod('a', '1'), pod('a', '1', 'Succeeded'), NOW)).toBe(true);
  });
});

describe('ResourceQuotaController', () => {
  it('writes the counted status of a new quota', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.pods, pod('a', '250m'), pod('b', '250m'), pod('done', '1', 'Succeeded'));
    env.fake.seed(GVR.resourceQuotas, quota({ pods: '5', 'requests.cpu': '1', 'limits.memory': '1Gi' }));
    const c = new ResourceQuotaController(env.ctx);
    await env.sync();
    await c.sync('default/q');
    expect(env.fake.actionLines()).toEqual(['update resourcequotas/status default/q']);
    const got = await env.fake.clientset.core.resourceQuotas('default').get('q');
    expect(got.status).toEqual({ hard: { pods: '5', 'requests.cpu': '1', 'limits.memory': '1Gi' }, used: { 'limits.memory': '0', pods: '2', 'requests.cpu': '500m' } });
    await env.stop();
  });

  it('a quota already current is left alone', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.pods, pod('a'));
    env.fake.seed(GVR.resourceQuotas, quota({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '1' } }));
    const c = new ResourceQuotaController(env.ctx);
    await env.sync();
    await c.sync('default/q');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });
});
