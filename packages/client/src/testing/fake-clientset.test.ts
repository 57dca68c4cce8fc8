import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { GVR } from '../clientset/clientset.js';
import { SharedInformerFactory } from '../informers/factory.js';
import { silentLogger } from '../util/logger.js';
import { flushPromises } from '../util/fake-clock.js';
import { FakeClientset } from './fake-clientset.js';

const pod = (name: string, node?: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'default', name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(node ? { nodeName: node } : {}) },
});

describe('FakeClientset', () => {
  it('feeds informers and records actions as a controller test compares them', async () => {
    const fake = new FakeClientset(() => Date.parse('2026-01-01T00:00:00Z'));
    fake.seed(GVR.pods, pod('a', 'node-1'), pod('b'));
    const factory = new SharedInformerFactory(fake.clientset, { logger: silentLogger });
    const pods = factory.core.pods();
    factory.start();
    expect(await factory.waitForCacheSync()).toEqual({ pods: true });
    await fake.clientset.core.pods('default').bind({ metadata: { name: 'b', namespace: 'default' }, target: { name: 'node-2' } });
    await fake.clientset.core.pods('default').create(pod('c'));
    await flushPromises();
    expect(
      pods
        .lister()
        .byIndex('spec.nodeName', 'node-2')
        .map((p) => p.metadata.name),
    ).toEqual(['b']);
    expect(pods.lister().namespace('default').get('c')?.metadata.resourceVersion).toBe('4');
    expect(fake.actionLines()).toEqual(['list pods', 'watch pods', 'create pods/binding default/b', 'create pods default']);
    await factory.shutdown();
  });

  it('issues fake tokens for existing service accounts, recorded as serviceaccounts/token', async () => {
    const fake = new FakeClientset(() => Date.parse('2026-01-01T00:00:00Z'));
    fake.seed(GVR.serviceAccounts, { metadata: { namespace: 'default', name: 'robot' } });
    const sa = fake.clientset.core.serviceAccounts('default');
    const tr = await sa.createToken('robot', { metadata: {}, spec: { audiences: ['api'], expirationSeconds: 600 } });
    expect(tr.status).toEqual({ token: expect.stringMatching(/^fake-token:default:robot:/), expirationTimestamp: '2026-01-01T00:10:00Z' });
    await expect(sa.createToken('nobody', { metadata: {}, spec: { audiences: [] } })).rejects.toThrow('serviceaccounts "nobody" not found');
    expect(fake.actionLines()).toEqual(['create serviceaccounts/token default/robot', 'create serviceaccounts/token default/nobody']);
  });

  it("refuses stale updates and duplicate creates with the apiserver's errors", async () => {
    const fake = new FakeClientset();
    const c = fake.clientset.core.pods('default');
    const a = await c.create(pod('a'));
    await c.update({ ...a, metadata: { ...a.metadata, labels: { x: '1' } } });
    await expect(c.update(a)).rejects.toThrow('Operation cannot be fulfilled on pods "a": the object has been modified; please apply your changes to the latest version and try again');
    await expect(c.create(pod('a'))).rejects.toThrow('pods "a" already exists');
    await expect(c.get('zz')).rejects.toThrow('pods "zz" not found');
    const patched = await c.patch('a', 'merge', { metadata: { labels: { x: null, y: '2' } } });
    expect(patched.metadata.labels).toEqual({ y: '2' });
  });
});
