import type { ConfigMap, Namespace } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { DESCRIPTION, RootCACertPublisher } from './publisher.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const ns = (name: string, more: Partial<Namespace> = {}): Namespace => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: 'Active' }, ...more });

describe('root CA certificate publisher', () => {
  it('creates kube-root-ca.crt with the CA and upstream description in an active namespace', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.namespaces, ns('team'), ns('leaving', { status: { phase: 'Terminating' } }));
    const c = new RootCACertPublisher(env.ctx, CA);
    await env.sync();
    await c.sync('team');
    await c.sync('leaving');
    expect(env.fake.actionLines()).toEqual(['create configmaps team']);
    expect(env.fake.peek<ConfigMap>(GVR.configMaps, 'team', 'kube-root-ca.crt')).toMatchObject({
      metadata: { name: 'kube-root-ca.crt', namespace: 'team', annotations: { 'kubernetes.io/description': DESCRIPTION } },
      data: { 'ca.crt': CA },
    });
    await env.stop();
  });

  it('leaves an up-to-date ConfigMap alone and puts back an edited one', async () => {
    const env = fakeEnv();
    const good: ConfigMap = { metadata: { name: 'kube-root-ca.crt', namespace: 'team', annotations: { 'kubernetes.io/description': DESCRIPTION } }, data: { 'ca.crt': CA } };
    env.fake.seed(GVR.namespaces, ns('team'), ns('edited'));
    const edited: ConfigMap = { metadata: { name: 'kube-root-ca.crt', namespace: 'edited', labels: { mine: 'yes' } }, data: { 'ca.crt': 'not a CA', extra: 'x' } };
    env.fake.seed(GVR.configMaps, good, edited);
    const c = new RootCACertPublisher(env.ctx, CA);
    await env.sync();
    await c.sync('team');
    await c.sync('edited');
    expect(env.fake.actionLines()).toEqual(['update configmaps edited/kube-root-ca.crt']);
    expect(env.fake.peek<ConfigMap>(GVR.configMaps, 'edited', 'kube-root-ca.crt')).toMatchObject({
      metadata: { labels: { mine: 'yes' }, annotations: { 'kubernetes.io/description': DESCRIPTION } },
      data: { 'ca.crt': CA },
    });
    expect(env.fake.peek<ConfigMap>(GVR.configMaps, 'edited', 'kube-root-ca.crt')?.data).toEqual({ 'ca.crt': CA });
    await env.stop();
  });

  it('recreates the ConfigMap when it is deleted (the delete enqueues its namespace)', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.namespaces, ns('team'));
    const c = new RootCACertPublisher(env.ctx, CA);
    await env.sync();
    await c.processItem(await c.queue.get().then((k) => k!));
    expect(env.fake.peek(GVR.configMaps, 'team', 'kube-root-ca.crt')).toBeDefined();
    await env.ctx.clientset.core.configMaps('team').delete('kube-root-ca.crt');
    expect(await c.queue.get()).toBe('team');
    await c.processItem('team');
    expect(env.fake.peek<ConfigMap>(GVR.configMaps, 'team', 'kube-root-ca.crt')?.data).toEqual({ 'ca.crt': CA });
    await env.stop();
  });
});
