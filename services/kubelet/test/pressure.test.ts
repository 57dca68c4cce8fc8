// Node pressure and eviction, gRPC probes and activeDeadlineSeconds on one
// node with time compressed 10x. The node's simulated memory is 1Gi and the
// only threshold memory.available<100Mi, so a `stress` pod holding 950M
// drives the node into MemoryPressure and gets evicted with upstream's texts.

import type { Node, Pod } from '@kubelab/api';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseThresholdConfig } from '../src/eviction/thresholds.js';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

const get = (c: Cluster, name: string) => c.cs.core.pods('default').get(name);
const condition = async (c: Cluster, type: string) => ((await c.cs.core.nodes().get('node-1')) as Node).status?.conditions?.find((x) => x.type === type);

describe.skipIf(!requireTool('nats-server'))('node pressure, gRPC probes, active deadline (time-scale 10)', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({
      containerd: { timeScale: 10 },
      kubelet: {
        timeScale: 10,
        memoryCapacityBytes: 1024 * 1024 * 1024,
        evictionThresholds: parseThresholdConfig({ hard: 'memory.available<100Mi' }),
        evictionMonitoringPeriodMs: 5_000,
        evictionPressureTransitionPeriodMs: 20_000,
      },
    });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('memory pressure: MemoryPressure=True, the pod over its request is evicted with upstream texts, the quiet pod stays', async () => {
    await c.cs.core.pods('default').create(pod('quiet', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'], resources: { requests: { memory: '64Mi' } } }] }));
    await waitFor('quiet Running', async () => (await get(c, 'quiet')).status?.phase === 'Running', POLL);
    expect(await condition(c, 'MemoryPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' });

    await c.cs.core.pods('default').create(pod('hog', { containers: [{ name: 'stress', image: 'polinux/stress', command: ['stress'], args: ['--vm', '1', '--vm-bytes', '950M', '--vm-hang', '1'] }] }));
    const pressure = await waitFor(
      'MemoryPressure True',
      async () => {
        const x = await condition(c, 'MemoryPressure');
        return x?.status === 'True' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(pressure).toMatchObject({ reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });

    const evicted = await waitFor(
      'hog evicted',
      async () => {
        const x = (await get(c, 'hog')) as Pod;
        return x.status?.phase === 'Failed' && !x.status.containerStatuses?.[0]?.state?.running ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    // 1Gi − (950Mi + 1Mi stress baseline) − 400Ki busybox = 74352Ki available.
    const message = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 74352Ki. Container stress was using 951Mi, request is 0, has larger consumption of memory. ';
    expect(evicted.status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message });
    expect(evicted.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet', message });
    expect(evicted.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(await podEvents(c.cs, 'hog')).toContain(`Evicted: ${message}`);
    expect((await get(c, 'quiet')).status?.phase).toBe('Running');

    // Pressure clears one transition period (20 s of node time) after memory came back.
    const clear = await waitFor(
      'MemoryPressure False',
      async () => {
        const x = await condition(c, 'MemoryPressure');
        return x?.status === 'False' ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(clear).toMatchObject({ reason: 'KubeletHasSufficientMemory' });
  }, 40_000);

  it('gRPC liveness: NOT_SERVING restarts the container; a gRPC port nobody serves fails readiness with upstream texts', async () => {
    await c.cs.core.pods('default').create(
      pod('grpc', {
        containers: [
          {
            name: 'app',
            image: 'kubelab/grpc-health',
            // timeoutSeconds 10: 1 s of wall time at time-scale 10. The default 1 s is 100 ms of wall time to dial
            // and call, which a loaded machine misses now and then: with failureThreshold 1 that one timeout
            // restarts the container before NOT_SERVING is written (exec into an exited container, or no
            // NOT_SERVING event). The test is about what the probe answers, not how fast.
            livenessProbe: { grpc: { port: 8080 }, periodSeconds: 2, timeoutSeconds: 10, failureThreshold: 1 },
            readinessProbe: { grpc: { port: 9090, service: 'ready' }, periodSeconds: 2 },
          },
        ],
      }),
    );
    const running = await waitFor(
      'grpc running',
      async () => {
        const x = await get(c, 'grpc');
        return x.status?.containerStatuses?.[0]?.state?.running ? x : undefined;
      },
      POLL,
    );
    const podIP = running.status!.podIP!;
    const readiness = await waitFor('a Readiness Unhealthy event for grpc', async () => (await podEvents(c.cs, 'grpc')).find((e) => e.startsWith('Unhealthy: Readiness')), {
      ...POLL,
      timeoutMs: 10_000,
    });
    expect(readiness).toBe(`Unhealthy: Readiness probe failed: timeout: failed to connect service "${podIP}:9090" within 1s: context deadline exceeded`);
    const id = running.status!.containerStatuses![0]!.containerID!.replace('containerd://', '');
    // Written beside and renamed over: `>` truncates before it writes, and a probe reading the empty file
    // in between is answered UNKNOWN (a restart with another message), which a loaded machine makes likely.
    await c.kubelet.kubelet.rt.execSync(id, ['sh', '-c', 'echo NOT_SERVING > /tmp/grpc-status.new && mv /tmp/grpc-status.new /tmp/grpc-status'], 5);
    const restarted = await waitFor(
      'a grpc restart',
      async () => {
        const x = await get(c, 'grpc');
        return (x.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(restarted.status?.containerStatuses?.[0]?.ready).toBe(false);
    const events = await podEvents(c.cs, 'grpc');
    expect(events).toContain('Unhealthy: Liveness probe failed: service unhealthy (responded with "NOT_SERVING")');
    expect(events).toContain('Killing: Container app failed liveness probe, will be restarted');
  }, 30_000);

  it('activeDeadlineSeconds: the pod is failed with DeadlineExceeded and its containers stopped', async () => {
    await c.cs.core.pods('default').create(pod('deadline', { activeDeadlineSeconds: 20, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '600'] }] }));
    const failed = await waitFor(
      'deadline Failed',
      async () => {
        const x = await get(c, 'deadline');
        return x.status?.phase === 'Failed' && x.status.containerStatuses?.[0]?.state?.terminated ? x : undefined;
      },
      { ...POLL, timeoutMs: 10_000 },
    );
    expect(failed.status).toMatchObject({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    expect(await podEvents(c.cs, 'deadline')).toContain('DeadlineExceeded: Pod was active on the node longer than the specified deadline');
  }, 30_000);
});
