import { serviceUnavailable, type Lease } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { GVR } from '../clientset/clientset.js';
import { FakeClientset } from '../testing/fake-clientset.js';
import { FakeClock, flushPromises } from '../util/fake-clock.js';
import { silentLogger } from '../util/logger.js';
import { LeaderElector, type LeaderElectionConfig } from './leaderelection.js';
import { prometheusLeaderElectionMetrics } from './metrics.js';
import { LeaseLock } from './resourcelock.js';
import { Registry } from 'prom-client';

const START = '2026-01-01T00:00:00Z';

function world() {
  const clock = new FakeClock(START);
  const fake = new FakeClientset(() => clock.now());
  return { clock, fake };
}

function candidate(w: ReturnType<typeof world>, id: string, extra: Partial<LeaderElectionConfig> = {}) {
  const log: string[] = [];
  let leadingSignal: AbortSignal | undefined;
  const elector = new LeaderElector({
    lock: new LeaseLock(w.fake.clientset.coordination.leases('kube-system'), 'kube-system', 'kube-scheduler', id),
    clock: w.clock,
    logger: silentLogger,
    random: () => 0,
    callbacks: {
      onStartedLeading: (signal) => {
        leadingSignal = signal;
        log.push(`started ${w.clock.now() - Date.parse(START)}`);
      },
      onStoppedLeading: () => log.push(`stopped ${w.clock.now() - Date.parse(START)}`),
      onNewLeader: (who) => log.push(`leader ${who}`),
    },
    ...extra,
  });
  const ac = new AbortController();
  const done = elector.run(ac.signal);
  return { elector, log, ac, done, leading: () => leadingSignal };
}

const lease = (w: ReturnType<typeof world>) => w.fake.peek<Lease>(GVR.leases, 'kube-system', 'kube-scheduler');

describe('LeaderElector', () => {
  it('creates the Lease and leads when there is none', async () => {
    const w = world();
    const a = candidate(w, 'node-a_1234');
    await flushPromises();
    expect(a.log).toEqual(['leader node-a_1234', 'started 0']);
    expect(a.elector.isLeader()).toBe(true);
    expect(lease(w)?.spec).toEqual({
      holderIdentity: 'node-a_1234',
      leaseDurationSeconds: 15,
      acquireTime: '2026-01-01T00:00:00.000000Z',
      renewTime: '2026-01-01T00:00:00.000000Z',
      leaseTransitions: 0,
    });
    a.ac.abort();
    await a.done;
  });

  it('renews every retryPeriod, keeping acquireTime', async () => {
    const w = world();
    const a = candidate(w, 'a');
    await flushPromises();
    await w.clock.advance(2000);
    expect(lease(w)?.spec?.renewTime).toBe('2026-01-01T00:00:02.000000Z');
    await w.clock.advance(2000);
    expect(lease(w)?.spec).toMatchObject({ acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:04.000000Z', holderIdentity: 'a' });
    a.ac.abort();
    await a.done;
    expect(a.log).toEqual(['leader a', 'started 0', 'stopped 4000']);
  });

  it('keeps a second candidate waiting while the leader renews; ReleaseOnCancel hands over at once', async () => {
    const w = world();
    const a = candidate(w, 'a', { releaseOnCancel: true });
    await flushPromises();
    const b = candidate(w, 'b');
    await w.clock.advance(20_000); // longer than the lease: a keeps renewing
    expect(b.log).toEqual(['leader a']);
    expect(b.elector.isLeader()).toBe(false);
    a.ac.abort();
    await a.done;
    expect(lease(w)?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 0 });
    await w.clock.advance(2000); // b's next try
    expect(b.log).toEqual(['leader a', 'leader b', 'started 22000']);
    expect(lease(w)?.spec).toMatchObject({ holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 });
    b.ac.abort();
    await b.done;
  });

  it('takes over a lease whose holder stopped renewing, leaseDuration after it last saw a change', async () => {
    const w = world();
    w.fake.seed(GVR.leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: 'kube-system', name: 'kube-scheduler' },
      spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, acquireTime: '2025-12-31T23:00:00.000000Z', renewTime: '2025-12-31T23:59:59.000000Z', leaseTransitions: 3 },
    } as Lease);
    const b = candidate(w, 'b');
    await flushPromises();
    expect(b.log).toEqual(['leader dead']);
    await w.clock.advance(14_000);
    expect(b.elector.isLeader()).toBe(false);
    await w.clock.advance(2_000); // observed at 0, expires after 15 s; next try at 16 s
    expect(b.log).toEqual(['leader dead', 'leader b', 'started 16000']);
    expect(lease(w)?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 4, acquireTime: '2026-01-01T00:00:16.000000Z' });
    b.ac.abort();
    await b.done;
  });

  it('loses leadership when renewals fail for renewDeadline (apiserver outage)', async () => {
    const w = world();
    const a = candidate(w, 'a');
    await flushPromises();
    await w.clock.advance(2000); // one good renewal at 2 s
    let outage = true;
    w.fake.prependReactor('*', 'leases', () => {
      if (outage) throw serviceUnavailable('connection refused');
      return undefined;
    });
    await w.clock.advance(11_999); // this renew round started at 4 s: deadline 14 s
    expect(a.log).toEqual(['leader a', 'started 0']);
    expect(a.leading()?.aborted).toBe(false);
    await w.clock.advance(1);
    await a.done;
    expect(a.log).toEqual(['leader a', 'started 0', 'stopped 14000']);
    expect(a.leading()?.aborted).toBe(true);
    outage = false;
    const attempts = w.fake.actionLines().filter((l) => l.startsWith('get leases'));
    // acquire at 0 s, renewals at 0 s and 2 s, then failing tries at 4, 6, 8, 10 and 12 s
    expect(attempts.length).toBe(3 + 5);
  });

  it('gives up on a lock call that hangs past the renew deadline', async () => {
    const w = world();
    const a = candidate(w, 'a');
    await flushPromises();
    w.fake.prependReactor('get', 'leases', () => new Promise(() => {}));
    await w.clock.advance(2000 + 10_000);
    await a.done;
    expect(a.log).toEqual(['leader a', 'started 0', 'stopped 12000']);
  });

  it('reports leader_election_master_status{name}: 0 as standby, 1 while leading, 0 after', async () => {
    const w = world();
    const registry = new Registry();
    const status = async () => (await registry.getSingleMetricAsString('leader_election_master_status')).split('\n').filter((l) => !l.startsWith('#'));
    const a = candidate(w, 'a', { name: 'kube-scheduler', metrics: prometheusLeaderElectionMetrics(registry) });
    const b = candidate(w, 'b', { name: 'kube-scheduler-b', metrics: prometheusLeaderElectionMetrics(registry) });
    await flushPromises();
    expect(await status()).toEqual(['leader_election_master_status{name="kube-scheduler"} 1', 'leader_election_master_status{name="kube-scheduler-b"} 0']);
    a.ac.abort();
    await a.done;
    expect(await status()).toEqual(['leader_election_master_status{name="kube-scheduler"} 0', 'leader_election_master_status{name="kube-scheduler-b"} 0']);
    b.ac.abort();
    await b.done;
  });

  it('refuses configurations upstream refuses', () => {
    const w = world();
    const lock = new LeaseLock(w.fake.clientset.coordination.leases('kube-system'), 'kube-system', 'x', 'id');
    const callbacks = { onStartedLeading: () => {}, onStoppedLeading: () => {} };
    expect(() => new LeaderElector({ lock, callbacks, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow('leaseDuration must be greater than renewDeadline');
    expect(() => new LeaderElector({ lock, callbacks, renewDeadlineMs: 2_400 })).toThrow('renewDeadline must be greater than retryPeriod*JitterFactor');
    const noId = new LeaseLock(w.fake.clientset.coordination.leases('kube-system'), 'kube-system', 'x', '');
    expect(() => new LeaderElector({ lock: noId, callbacks })).toThrow('Lock identity is empty');
  });
});
