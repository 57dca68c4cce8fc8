// Graceful deletion as upstream's terminating pod worker runs it: once a
// pod's deletionTimestamp is set the kubelet only stops its containers (with
// the deletion's grace period) — a liveness failure, a crash or a back-off
// ending never starts one again — then confirms the deletion. Node time runs
// 10x (containerd and kubelet --time-scale 10).

import type { Pod } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

const UID_LABEL = 'io.kubernetes.pod.uid';

describe.skipIf(!requireTool('nats-server'))('graceful deletion never restarts a container (time-scale 10)', () => {
  let c: Cluster;
  /** CRI calls as the runtime received them. */
  let created: MockInstance;
  let started: MockInstance;
  let stopped: MockInstance;
  beforeAll(async () => {
    c = await startCluster({ containerd: { timeScale: 10 }, kubelet: { timeScale: 10 } });
    const rt = c.containerd.runtime;
    created = vi.spyOn(rt, 'createContainer');
    started = vi.spyOn(rt, 'startContainer');
    stopped = vi.spyOn(rt, 'stopContainer');
  }, 30_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await c?.dispose();
  });

  const pods = () => c.cs.core.pods('default');
  const get = (name: string) => pods().get(name);
  /** Containers the runtime created for a pod (ID and name), in CreateContainer calls [from, to). */
  const createdFor = (uid: string, from = 0, to = created.mock.calls.length) =>
    created.mock.results.slice(from, to).flatMap((r, i) => {
      const config = created.mock.calls[from + i]?.[1] as { labels?: Record<string, string>; metadata?: { name?: string } } | undefined;
      return config?.labels?.[UID_LABEL] === uid && r.type === 'return' ? [{ id: (r.value as { id: string }).id, name: config.metadata?.name ?? '' }] : [];
    });
  /** Restart count per container as of CreateContainer call `upTo`: the instances created until then, minus one. */
  const restartsAt = (uid: string, upTo: number) => {
    const out: Record<string, number> = {};
    for (const { name } of createdFor(uid, 0, upTo)) out[name] = (out[name] ?? -1) + 1;
    return out;
  };
  const idsOf = (uid: string) => new Set(createdFor(uid).map((x) => x.id));

  /**
   * Deletes the pod with gracePeriodSeconds and returns every pod object the
   * API showed from then until it was removed, the CRI call counts at the
   * moment of deletion and how long (wall ms) the removal took.
   */
  async function deleteAndWatch(name: string, gracePeriodSeconds: number): Promise<{ seen: Pod[]; createdAt: number; startedAt: number; stoppedAt: number; ms: number }> {
    const current = await get(name);
    const seen: Pod[] = [];
    const stream = pods().watch({ resourceVersion: current.metadata.resourceVersion ?? '' });
    const gone = (async () => {
      for await (const ev of stream) {
        if (ev.object.metadata.name !== name) continue;
        if (ev.type === 'DELETED') return true;
        seen.push(ev.object);
      }
      return false;
    })();
    const at = { createdAt: created.mock.calls.length, startedAt: started.mock.calls.length, stoppedAt: stopped.mock.calls.length };
    const t0 = Date.now();
    const r = await pods().delete(name, { gracePeriodSeconds });
    expect((r.object as Pod).metadata.deletionTimestamp).toBeDefined();
    const timeout = new Promise<boolean>((res) => setTimeout(() => res(false), 20_000).unref());
    const removed = await Promise.race([gone, timeout]);
    stream.stop();
    expect(removed).toBe(true);
    return { seen, ...at, ms: Date.now() - t0 };
  }

  it('a container whose liveness restart is under way when the pod is deleted is stopped by TERM, not started again', async () => {
    await pods().create(
      pod('probedel', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            // Shuts down 20 s after TERM: the liveness kill is still running when the deletion arrives.
            command: ['sh', '-c', "trap 'echo got TERM; sleep 20; exit 0' TERM; while true; do sleep 1; done"],
            livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, periodSeconds: 1, failureThreshold: 1 },
          },
        ],
      }),
    );
    // After a restart, the next liveness kill of the running container has begun.
    const before = await waitFor(
      'a liveness kill of the restarted probedel container',
      async () => {
        const p = await get('probedel');
        const s = p.status?.containerStatuses?.[0];
        if (!s?.state?.running || !s.containerID || s.restartCount < 1) return undefined;
        const id = s.containerID.replace('containerd://', '');
        return stopped.mock.calls.some(([x]) => x === id) ? p : undefined;
      },
      { ...POLL, timeoutMs: 20_000 },
    );
    const uid = before.metadata.uid!;

    const { seen, createdAt, startedAt, stoppedAt } = await deleteAndWatch('probedel', 60);

    // No CreateContainer / StartContainer for the pod after the deletion.
    expect(createdFor(uid, createdAt)).toEqual([]);
    const ours = idsOf(uid);
    expect(started.mock.calls.slice(startedAt).filter(([id]) => ours.has(id as string))).toEqual([]);
    // No status written while terminating counts a restart past the deletion (the first may still lag behind it).
    const restarts = restartsAt(uid, createdAt).app;
    expect(restarts).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) expect(p.status?.containerStatuses?.[0]?.restartCount).toBeLessThanOrEqual(restarts!);
    // The kubelet stopped it with the deletion's grace period; its TERM trap ended it (exit 0, not KILL's 137).
    expect(
      stopped.mock.calls
        .slice(stoppedAt)
        .filter(([id]) => ours.has(id as string))
        .map(([, grace]) => grace),
    ).toContain(60);
    const last = seen.at(-1)!.status!.containerStatuses![0]!;
    expect(last.restartCount).toBe(restarts);
    expect(last.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(last.ready).toBe(false);
    const events = await podEvents(c.cs, 'probedel');
    expect(events.at(-1)).toBe('Killing: Stopping container app');
    expect(await c.kubelet.kubelet.rt.listContainers({ labelSelector: { [UID_LABEL]: uid } })).toEqual([]);
  }, 40_000);

  it('a crash-looping container is not restarted while its pod terminates, through several back-off ends', async () => {
    await pods().create(
      pod('crashdel', {
        restartPolicy: 'Always',
        containers: [
          { name: 'crasher', image: 'busybox:1.36', command: ['sh', '-c', 'echo dying; exit 1'] },
          // Shuts down 60 s (6 s here) after TERM: the crasher's back-off (20 s, then 40 s) ends meanwhile.
          { name: 'app', image: 'busybox:1.36', command: ['sh', '-c', "trap 'sleep 60; exit 0' TERM; while true; do sleep 1; done"] },
        ],
      }),
    );
    // Deleted early in a 20 s (2 s here) back-off, far from the moment it ends.
    const before = await waitFor(
      'crasher in CrashLoopBackOff beside a running app',
      async () => {
        const p = await get('crashdel');
        const s = p.status?.containerStatuses?.find((x) => x.name === 'crasher');
        return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s.restartCount >= 2 && p.status?.containerStatuses?.find((x) => x.name === 'app')?.state?.running ? p : undefined;
      },
      { timeoutMs: 20_000, everyMs: 20 },
    );
    const uid = before.metadata.uid!;

    const { seen, createdAt, startedAt, stoppedAt, ms } = await deleteAndWatch('crashdel', 90);

    expect(createdFor(uid, createdAt)).toEqual([]);
    const ours = idsOf(uid);
    expect(started.mock.calls.slice(startedAt).filter(([id]) => ours.has(id as string))).toEqual([]);
    const restarts = restartsAt(uid, createdAt);
    expect(restarts.crasher).toBeGreaterThanOrEqual(2);
    // The app took its 60 s (6 s here) to stop: the crasher's back-off (20 s, then 40 s: 2 s, 4 s here) ended meanwhile.
    expect(ms).toBeGreaterThan(5000);
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) for (const s of p.status?.containerStatuses ?? []) expect(s.restartCount).toBeLessThanOrEqual(restarts[s.name]!);
    expect(
      stopped.mock.calls
        .slice(stoppedAt)
        .filter(([id]) => ours.has(id as string))
        .map(([, grace]) => grace),
    ).toContain(90);
    // The last status shows both terminated: the crash as it was, the app ended by its TERM trap.
    const last = seen.at(-1)!.status!.containerStatuses!;
    expect(Object.fromEntries(last.map((s) => [s.name, s.restartCount]))).toEqual(restarts);
    expect(last.find((s) => s.name === 'crasher')?.state?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(last.find((s) => s.name === 'app')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(await c.kubelet.kubelet.rt.listContainers({ labelSelector: { [UID_LABEL]: uid } })).toEqual([]);
  }, 40_000);
});
