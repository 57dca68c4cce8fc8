import type { ObjectReference, Pod } from '@kubelab/api';
import { createLogger } from '@kubelab/component-base';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import type { Summary } from './helpers.js';
import { EvictionManager } from './manager.js';
import { parseThresholdConfig } from './thresholds.js';

const Mi = 1024 * 1024;
const Gi = 1024 * Mi;

function setup(config: { hard: string; soft?: string; softGracePeriod?: string }, pods: Pod[]) {
  const clock = new FakeClock();
  const events: string[] = [];
  const killed: string[] = [];
  let used = 0;
  const summary = async (): Promise<Summary> => ({
    memory: { capacityBytes: Gi, workingSetBytes: used },
    pods: [
      { uid: 'uid-quiet', containers: [{ name: 'app', workingSetBytes: 10 * Mi, rootfsUsedBytes: 0, inodesUsed: 0 }], processes: 1 },
      { uid: 'uid-hog', containers: [{ name: 'app', workingSetBytes: used - 10 * Mi, rootfsUsedBytes: 0, inodesUsed: 0 }], processes: 1 },
    ],
  });
  const m = new EvictionManager({
    config: { thresholds: parseThresholdConfig(config), pressureTransitionPeriodMs: 300_000, maxPodGracePeriodSeconds: 30 },
    summary,
    activePods: () => pods.filter((p) => !killed.includes(p.metadata.name!)),
    killPod: (p, grace, st) => killed.push(`${p.metadata.name}/${grace}/${st.reason}/${st.condition.type}:${st.condition.reason}`),
    recorder: { event: (ref: ObjectReference, type, reason, message) => events.push(`${ref.kind}/${ref.name} ${type} ${reason}: ${message}`) },
    nodeRef: () => ({ kind: 'Node', name: 'node-1' }),
    clock,
    log: createLogger({ component: 'kubelet', level: 'error', write: () => {} }),
  });
  return { m, clock, events, killed, use: (n: number) => (used = n) };
}

const pod = (name: string): Pod => ({ metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });

describe('eviction manager', () => {
  it('hard threshold: MemoryPressure, one eviction of the top-ranked pod with grace 0, pressure held for the transition period', async () => {
    const { m, clock, events, killed, use } = setup({ hard: 'memory.available<100Mi' }, [pod('quiet'), pod('hog')]);
    use(500 * Mi);
    expect(await m.synchronize()).toEqual([]);
    expect(m.pressure()).toEqual({ memory: false, disk: false, pid: false });
    use(Gi - 42 * Mi);
    const evicted = await m.synchronize();
    expect(evicted.map((p) => p.metadata.name)).toEqual(['hog']);
    expect(m.pressure().memory).toBe(true);
    expect(killed).toEqual(['hog/0/Evicted/DisruptionTarget:TerminationByKubelet']);
    expect(events).toEqual([
      'Node/node-1 Warning EvictionThresholdMet: Attempting to reclaim memory',
      'Pod/hog Warning Evicted: The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. Container app was using 972Mi, request is 0, has larger consumption of memory. ',
    ]);
    use(100 * Mi);
    await clock.advance(10_000);
    expect(await m.synchronize()).toEqual([]);
    expect(m.pressure().memory).toBe(true);
    await clock.advance(300_000);
    await m.synchronize();
    expect(m.pressure().memory).toBe(false);
  });

  it('soft threshold: pressure at once, eviction only after the grace period, with --eviction-max-pod-grace-period', async () => {
    const { m, clock, killed, use } = setup({ hard: '', soft: 'memory.available<300Mi', softGracePeriod: 'memory.available=1m' }, [pod('quiet'), pod('hog')]);
    use(Gi - 200 * Mi);
    expect(await m.synchronize()).toEqual([]);
    expect(m.pressure().memory).toBe(true);
    await clock.advance(59_000);
    expect(await m.synchronize()).toEqual([]);
    await clock.advance(1_000);
    expect((await m.synchronize()).map((p) => p.metadata.name)).toEqual(['hog']);
    expect(killed).toEqual(['hog/30/Evicted/DisruptionTarget:TerminationByKubelet']);
  });

  it('never evicts static pods', async () => {
    const staticPod = { ...pod('hog'), metadata: { ...pod('hog').metadata, annotations: { 'kubernetes.io/config.source': 'file' } } };
    const { m, killed, use } = setup({ hard: 'memory.available<100Mi' }, [staticPod]);
    use(Gi - 1 * Mi);
    expect(await m.synchronize()).toEqual([]);
    expect(killed).toEqual([]);
  });
});
