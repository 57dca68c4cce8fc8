import type { KubeObject, OwnerReference } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { blockingDependents, decideDependent, type OwnerState } from './decisions.js';

const ref = (uid: string, block = true): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true, blockOwnerDeletion: block });
const obj = (finalizers: string[] = [], refs: OwnerReference[] = []): KubeObject => ({ metadata: { name: 'p', uid: 'p', finalizers, ownerReferences: refs } });

describe('garbage collector decisions', () => {
  it.each<[string, Array<[string, OwnerState]>, boolean, string[], ReturnType<typeof decideDependent>]>([
    ['owner exists', [['a', 'solid']], false, [], { kind: 'none' }],
    ['owner gone: delete in the background', [['a', 'dangling']], false, [], { kind: 'delete', propagationPolicy: 'Background' }],
    ['one owner gone, one left: drop the reference', [['a', 'dangling'], ['b', 'solid']], false, [], { kind: 'removeOwnerRefs', uids: ['a'] }],
    ['owner deleting in the foreground, dependent has dependents', [['a', 'waitingForDependentsDeletion']], true, [], { kind: 'delete', propagationPolicy: 'Foreground' }],
    ['owner deleting in the foreground, leaf dependent', [['a', 'waitingForDependentsDeletion']], false, [], { kind: 'delete', propagationPolicy: 'Background' }],
    ['owner gone, dependent asks to orphan its own', [['a', 'dangling']], false, ['orphan'], { kind: 'delete', propagationPolicy: 'Orphan' }],
  ])('%s', (_n, owners, hasDeps, fin, want) => {
    const o = obj(fin, owners.map(([u]) => ref(u)));
    expect(decideDependent(o, owners.map(([u, state]) => ({ ref: ref(u), state })), hasDeps)).toEqual(want);
  });
  it('only blockOwnerDeletion dependents hold a foreground owner', () => {
    const deps = [obj([], [ref('o', true)]), obj([], [ref('o', false)])];
    expect(blockingDependents('o', deps)).toEqual([deps[0]]);
  });
});
