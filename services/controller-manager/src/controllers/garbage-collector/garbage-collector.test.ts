import type { KubeObject, OwnerReference, ReplicaSet } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { blockingDependents, decideDependent, type OwnerState } from './decisions.js';
import { GarbageCollector } from './garbage-collector.js';

const ref = (uid: string, block = true): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true, blockOwnerDeletion: block });
const obj = (finalizers: string[] = [], refs: OwnerReference[] = []): KubeObject => ({ metadata: { name: 'p', uid: 'p', finalizers, ownerReferences: refs } });

describe('garbage collector decisions', () => {
  it.each<[string, Array<[string, OwnerState]>, boolean, string[], ReturnType<typeof decideDependent>]>([
    ['owner exists', [['a', 'solid']], false, [], { kind: 'none' }],
    ['owner gone: delete in the background', [['a', 'dangling']], false, [], { kind: 'delete', propagationPolicy: 'Background' }],
    [
      'one owner gone, one left: drop the reference',
      [
        ['a', 'dangling'],
        ['b', 'solid'],
      ],
      false,
      [],
      { kind: 'removeOwnerRefs', uids: ['a'] },
    ],
    ['owner deleting in the foreground, dependent has dependents', [['a', 'waitingForDependentsDeletion']], true, [], { kind: 'delete', propagationPolicy: 'Foreground' }],
    ['owner deleting in the foreground, leaf dependent', [['a', 'waitingForDependentsDeletion']], false, [], { kind: 'delete', propagationPolicy: 'Background' }],
    ['owner gone, dependent asks to orphan its own', [['a', 'dangling']], false, ['orphan'], { kind: 'delete', propagationPolicy: 'Orphan' }],
  ])('%s', (_n, owners, hasDeps, fin, want) => {
    const o = obj(
      fin,
      owners.map(([u]) => ref(u)),
    );
    expect(
      decideDependent(
        o,
        owners.map(([u, state]) => ({ ref: ref(u), state })),
        hasDeps,
      ),
    ).toEqual(want);
  });
  it('only blockOwnerDeletion dependents hold a foreground owner', () => {
    const deps = [obj([], [ref('o', true)]), obj([], [ref('o', false)])];
    expect(blockingDependents('o', deps)).toEqual([deps[0]]);
  });
});

describe('garbage collector sync (fake clientset)', () => {
  const owned = (): ReplicaSet => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web-1',
      namespace: 'default',
      uid: 'rs-uid',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true, blockOwnerDeletion: true }],
    },
    spec: { selector: { matchLabels: { app: 'web' } } },
  });

  it('deletes a dependent whose owner is gone (background)', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.replicaSets, owned());
    const gc = new GarbageCollector(env.ctx);
    await env.sync();
    await gc.sync('apps/replicasets|default|web-1');
    expect(env.fake.actionLines().filter((l) => l.startsWith('delete'))).toEqual(['delete replicasets default/web-1']);
    await env.stop();
  });

  it('keeps a dependent the cache still shows owned but the live object no longer is (orphan deletion racing the watch)', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.replicaSets, owned());
    const gc = new GarbageCollector(env.ctx);
    await env.sync();
    // The orphaning owner's patch reached the apiserver, not yet this cache.
    env.fake.prependReactor('get', 'replicasets', (a) => (a.name === 'web-1' ? { ...owned(), metadata: { ...owned().metadata, ownerReferences: undefined } } : undefined));
    await gc.sync('apps/replicasets|default|web-1');
    expect(env.fake.actionLines().filter((l) => l.startsWith('delete') || l.startsWith('patch'))).toEqual([]);
    await env.stop();
  });
});
