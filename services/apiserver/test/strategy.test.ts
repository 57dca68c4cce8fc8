// The pod and daemonset strategies through the store, where defaulting runs
// first (src/registry/strategy.test.ts: the strategies as pure functions).

import type { KubeObject } from '@kubelab/api';
import { requireTool } from '@kubelab/testing';
import { describe, expect, it } from 'vitest';
import { gvr, RpcError } from '../src/testing/index.js';
import { useTestCluster } from './harness.js';

const TG = 'deprecated.daemonset.template.generation';

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const podWith = (...resources: Resources[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'x', resources: r })) },
});

const daemonSet = () => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:1' }] } } },
});

describe.runIf(requireTool('nats-server'))('strategies through the store (defaulting first)', () => {
  const t = useTestCluster();

  it('a pod with limits only is Guaranteed: its requests default from the limits before the class is taken', async () => {
    const pod = await t.k.create<KubeObject & { status: unknown }>(gvr('pods'), 'default', podWith({ limits: { cpu: '500m', memory: '128Mi' } }));
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
  });

  it('replacing a DaemonSet with its own manifest (keys sorted, defaults left out) bumps neither generation', async () => {
    const DSR = gvr('daemonsets', 'apps');
    const made = await t.k.create<KubeObject & { spec: unknown }>(DSR, 'default', daemonSet());
    expect([made.metadata.generation, made.metadata.annotations]).toEqual([1, { [TG]: '1' }]);
    // what `kubectl replace -f` sends: the manifest, keys in Go's sorted order, no server defaults
    const manifest = daemonSet();
    const sorted = {
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
      metadata: { name: 'agent', namespace: 'default', resourceVersion: made.metadata.resourceVersion },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ image: 'agent:1', name: 'a' }] } } },
    };
    const same = await t.k.update<KubeObject>(DSR, 'default', sorted as KubeObject);
    expect([same.metadata.generation, same.metadata.annotations]).toEqual([1, { [TG]: '1' }]);
    const changed = await t.k.patch<KubeObject>(DSR, 'default', 'agent', { spec: { template: { spec: { containers: [{ name: 'a', image: 'agent:2' }] } } } }, 'application/strategic-merge-patch+json');
    expect([changed.metadata.generation, changed.metadata.annotations]).toEqual([2, { [TG]: '2' }]);
    const err = await t.k.create(DSR, 'default', { ...daemonSet(), metadata: { name: 'bad', annotations: { [TG]: 'x' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).status.code).toBe(400);
  });
});
