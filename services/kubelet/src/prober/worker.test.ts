import { formatTime, type Container, type Pod, type PodStatus, type Probe } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '@kubelab/client/testing';
import type { ProbeResult } from './prober.js';
import { ResultsManager, type ResultUpdate } from './results.js';
import type { ProbeType } from './types.js';
import { Worker } from './worker.js';

const T0 = Date.UTC(2025, 0, 1);

function podWith(container: Container, restartPolicy: 'Always' | 'Never' = 'Always'): Pod {
  return { metadata: { name: 'probedemo', namespace: 'default', uid: 'uid-1' }, spec: { containers: [container], restartPolicy } };
}

function running(id: string, startedAt: number, started: boolean): PodStatus {
  return {
    phase: 'Running',
    containerStatuses: [
      { name: 'app', containerID: `containerd://${id}`, ready: false, restartCount: 0, image: 'busybox:1.36', imageID: '', started, state: { running: { startedAt: formatTime(startedAt) } } },
    ],
  };
}

/** A worker with a scripted prober and a hand-set pod status. */
function harness(type: ProbeType, probe: Probe, extra: Partial<Container> = {}) {
  const clock = new FakeClock(T0);
  const container: Container = { name: 'app', image: 'busybox:1.36', ...extra };
  if (type === 'Liveness') container.livenessProbe = probe;
  if (type === 'Readiness') container.readinessProbe = probe;
  if (type === 'Startup') container.startupProbe = probe;
  const pod = podWith(container);
  let status: PodStatus | undefined = running('c1', T0, type === 'Startup' ? false : true);
  const script: ProbeResult[] = [];
  let calls = 0;
  const results = new ResultsManager();
  const updates: ResultUpdate[] = [];
  results.onUpdate((u) => updates.push(u));
  const worker = new Worker(pod, container, type, {
    prober: {
      probe: async () => {
        calls++;
        return script.shift() ?? { result: 'Success' };
      },
    },
    results,
    statusProvider: { getPodStatus: () => status },
    clock,
    managerStart: T0 - 3_600_000,
  });
  return {
    clock,
    worker,
    results,
    updates,
    script,
    get calls() {
      return calls;
    },
    setStatus(s: PodStatus | undefined) {
      status = s;
    },
  };
}

describe('prober worker doProbe', () => {
  it('waits for the pod status and the container before probing', async () => {
    const h = harness('Liveness', { exec: { command: ['cat', '/tmp/healthy'] } });
    h.setStatus(undefined);
    expect(await h.worker.doProbe()).toBe(true);
    h.setStatus({ phase: 'Pending', containerStatuses: [] });
    expect(await h.worker.doProbe()).toBe(true);
    expect(h.calls).toBe(0);
    expect(h.updates).toEqual([]);
  });

  it('publishes the initial result per type on a new container: liveness Success, readiness Failure, startup Unknown', async () => {
    for (const [type, initial] of [
      ['Liveness', 'Success'],
      ['Readiness', 'Failure'],
      ['Startup', 'Unknown'],
    ] as const) {
      const h = harness(type, { exec: { command: ['true'] }, initialDelaySeconds: 100 });
      await h.worker.doProbe();
      expect(h.updates).toEqual([{ containerId: 'containerd://c1', result: initial, podUid: 'uid-1' }]);
      expect(h.calls).toBe(0);
    }
  });

  it('holds probing for initialDelaySeconds after the container started', async () => {
    const h = harness('Liveness', { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 });
    await h.clock.advance(4_999);
    await h.worker.doProbe();
    expect(h.calls).toBe(0);
    await h.clock.advance(1);
    await h.worker.doProbe();
    expect(h.calls).toBe(1);
  });

  it('changes a liveness result only after failureThreshold consecutive failures, then holds until a new container', async () => {
    const h = harness('Liveness', { exec: { command: ['cat', '/tmp/healthy'] }, failureThreshold: 3 });
    h.script.push({ result: 'Failure' }, { result: 'Failure' }, { result: 'Success' }, { result: 'Failure' }, { result: 'Failure' }, { result: 'Failure' });
    for (let i = 0; i < 6; i++) await h.worker.doProbe();
    expect(h.updates.map((u) => u.result)).toEqual(['Success', 'Failure']);
    // On hold: no more probes for this container.
    await h.worker.doProbe();
    expect(h.calls).toBe(6);
    // A restarted container (new ID) resumes with the initial result.
    h.setStatus(running('c2', h.clock.now(), true));
    await h.worker.doProbe();
    expect(h.calls).toBe(7);
    expect(h.updates.slice(2)).toEqual([{ containerId: 'containerd://c2', result: 'Success', podUid: 'uid-1' }]);
    expect(h.results.get('containerd://c1')).toBeUndefined();
  });

  it('needs successThreshold consecutive successes before readiness turns Success', async () => {
    const h = harness('Readiness', { httpGet: { port: 8080, path: '/ready' }, successThreshold: 2 });
    h.script.push({ result: 'Success' }, { result: 'Failure' }, { result: 'Success' }, { result: 'Success' });
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      await h.worker.doProbe();
      seen.push(h.results.get('containerd://c1'));
    }
    expect(seen).toEqual(['Failure', 'Failure', 'Failure', 'Success']);
  });

  it('throws away errored probes (they count toward no threshold)', async () => {
    const h = harness('Liveness', { exec: { command: ['nope'] }, failureThreshold: 1 });
    h.script.push({ result: 'Failure', error: 'rpc error: code = Unknown desc = boom' }, { result: 'Success' });
    await h.worker.doProbe();
    await h.worker.doProbe();
    expect(h.updates.map((u) => u.result)).toEqual(['Success']);
  });

  it('gates liveness and readiness until the container has started, and stops startup probing afterwards', async () => {
    const live = harness('Liveness', { exec: { command: ['true'] } });
    live.setStatus(running('c1', T0, false));
    await live.worker.doProbe();
    expect(live.calls).toBe(0);
    live.setStatus(running('c1', T0, true));
    await live.worker.doProbe();
    expect(live.calls).toBe(1);

    const startup = harness('Startup', { exec: { command: ['true'] } });
    await startup.worker.doProbe();
    expect(startup.calls).toBe(1);
    startup.setStatus(running('c1', T0, true));
    await startup.worker.doProbe();
    expect(startup.calls).toBe(1);
  });

  it('sets Failure for a container that is not running and stops for a terminated one under restartPolicy Never', async () => {
    const h = harness('Readiness', { exec: { command: ['true'] } });
    h.script.push({ result: 'Success' });
    await h.worker.doProbe();
    expect(h.results.get('containerd://c1')).toBe('Success');
    const terminated: PodStatus = {
      phase: 'Running',
      containerStatuses: [{ name: 'app', containerID: 'containerd://c1', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 1 } } }],
    };
    h.setStatus(terminated);
    expect(await h.worker.doProbe()).toBe(true);
    expect(h.results.get('containerd://c1')).toBe('Failure');

    const never = harness('Readiness', { exec: { command: ['true'] } });
    (never.worker.pod.spec as { restartPolicy?: string }).restartPolicy = 'Never';
    never.setStatus(terminated);
    expect(await never.worker.doProbe()).toBe(false);
  });

  it('ends for a pod that finished and reports liveness Success while the pod is being deleted', async () => {
    const h = harness('Liveness', { exec: { command: ['true'] } });
    h.setStatus({ phase: 'Succeeded' });
    expect(await h.worker.doProbe()).toBe(false);

    const d = harness('Liveness', { exec: { command: ['true'] } });
    d.script.push({ result: 'Failure' }, { result: 'Failure' }, { result: 'Failure' });
    d.worker.pod.metadata.deletionTimestamp = formatTime(T0);
    expect(await d.worker.doProbe()).toBe(false);
    expect(d.calls).toBe(0);
    expect(d.results.get('containerd://c1')).toBe('Success');
  });

  it('stop() is idempotent and ends a started loop without waiting for the period', async () => {
    const h = harness('Liveness', { exec: { command: ['true'] }, periodSeconds: 3600 });
    let exited = 0;
    const w = new Worker(
      h.worker.pod,
      h.worker.container,
      'Liveness',
      {
        prober: { probe: async () => ({ result: 'Success' }) },
        results: h.results,
        statusProvider: { getPodStatus: () => running('c1', T0, true) },
        clock: h.clock,
        managerStart: T0 - 3_600_000,
      },
      () => exited++,
    );
    w.start();
    await new Promise((r) => setImmediate(r));
    w.stop();
    w.stop();
    await new Promise((r) => setTimeout(r, 10));
    expect(exited).toBe(1);
    expect(w.isStopped).toBe(true);
  });
});
