import { describe, expect, it } from 'vitest';
import { PodSyncStates } from './pod-sync-state.js';

describe('PodSyncStates', () => {
  it('creates a pod record once, empty, and drops all of it at once', () => {
    const states = new PodSyncStates();
    expect(states.get('u1')).toBeUndefined();
    const s = states.of('u1');
    expect(s).toEqual({ reasons: new Map(), deadlineEventRecorded: false, containerStarts: new Map() });
    s.firstSeenAt = 1;
    s.reasons.set('app', { reason: 'CrashLoopBackOff', message: 'back-off' });
    s.eviction = { reason: 'Evicted', message: 'low on memory', gracePeriodSeconds: 0 };
    s.deadlineEventRecorded = true;
    s.statusAwaitingMirror = { phase: 'Running' };
    s.containerStarts.set('containerd://c1', 5);
    expect(states.of('u1')).toBe(s);
    states.drop('u1');
    expect(states.get('u1')).toBeUndefined();
    expect(states.containerStartedAt('u1', 'containerd://c1')).toBeUndefined();
    expect(states.of('u1')).toEqual({ reasons: new Map(), deadlineEventRecorded: false, containerStarts: new Map() });
  });

  it.each([
    { uid: 'a', id: 'containerd://a1', startedAt: 10 },
    { uid: 'b', id: 'containerd://b1', startedAt: 20 },
    { uid: 'a', id: 'containerd://b1', startedAt: undefined },
    { uid: 'a', id: 'containerd://zz', startedAt: undefined },
    { uid: 'zz', id: 'containerd://a1', startedAt: undefined },
  ])('finds when pod $uid container $id started', ({ uid, id, startedAt }) => {
    const states = new PodSyncStates();
    states.of('a').containerStarts.set('containerd://a1', 10);
    states.of('b').containerStarts.set('containerd://b1', 20);
    expect(states.containerStartedAt(uid, id)).toBe(startedAt);
  });
});
