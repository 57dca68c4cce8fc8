import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, Pod, ResourceInfo, Scale } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv, type FakeEnv } from '../../testing/fakes.js';
import { HorizontalController } from './horizontal-controller.js';
import type { PodMetric, ResourceMetricsClient, ScaleClient } from './metrics.js';

// The fake clock starts at 2026-01-01T00:00:00Z; pods started 10 minutes earlier are past CPU initialization.
const NOW = Date.parse('2026-01-01T00:00:00Z');
const STARTED = '2025-12-31T23:50:00Z';

function pod(name: string, cpuRequest = '100m'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'busybox', resources: { requests: { cpu: cpuRequest } } }] },
    status: { phase: 'Running', startTime: STARTED, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: STARTED }] },
  };
}

function hpa(spec: Partial<HorizontalPodAutoscalerSpec> = {}): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      ...spec,
    },
    status: { desiredReplicas: 0 },
  };
}

/** The target's scale subresource, recording what the controller does to it. */
class FakeScales implements ScaleClient {
  readonly calls: string[] = [];
  constructor(public replicas: number) {}
  async get(info: ResourceInfo, namespace: string, name: string): Promise<Scale> {
    this.calls.push(`get ${info.resource}/scale ${namespace}/${name}`);
    return { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace }, spec: { replicas: this.replicas }, status: { replicas: this.replicas, selector: 'app=web' } };
  }
  async update(info: ResourceInfo, namespace: string, scale: Scale): Promise<Scale> {
    this.calls.push(`update ${info.resource}/scale ${namespace}/${scale.metadata.name} replicas=${scale.spec?.replicas}`);
    this.replicas = scale.spec?.replicas ?? 0;
    return scale;
  }
}

function fakeMetrics(usage: Record<string, number>): ResourceMetricsClient {
  return {
    async getResourceMetric() {
      if (Object.keys(usage).length === 0) throw new Error('no metrics returned from resource metrics API');
      return new Map<string, PodMetric>(Object.entries(usage).map(([name, value]) => [name, { value, timestamp: NOW - 5_000, windowMs: 15_000 }]));
    },
  };
}

async function setup(h: HorizontalPodAutoscaler, pods: Pod[], replicas: number, usage: Record<string, number>): Promise<{ env: FakeEnv; c: HorizontalController; scales: FakeScales }> {
  const env = fakeEnv();
  env.fake.seed(GVR.horizontalPodAutoscalers, h);
  env.fake.seed(GVR.pods, ...pods);
  const scales = new FakeScales(replicas);
  const c = new HorizontalController(env.ctx, { scales, metrics: fakeMetrics(usage) });
  await env.sync();
  return { env, c, scales };
}

const stored = (env: FakeEnv) => env.fake.peek(GVR.horizontalPodAutoscalers, 'default', 'web') as HorizontalPodAutoscaler;
const conditions = (h: HorizontalPodAutoscaler) => (h.status?.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`);

describe('horizontal pod autoscaler sync', () => {
  it('scales a busy deployment up, with SuccessfulRescale and the status kubectl shows', async () => {
    // Two pods using all of their 100m request against a 50% target: twice the pods.
    const { env, c, scales } = await setup(hpa(), [pod('web-1'), pod('web-2')], 2, { 'web-1': 100, 'web-2': 100 });
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web', 'update deployments/scale default/web replicas=4']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulRescale New size: 4; reason: cpu resource utilization (percentage of request) above target']);
    expect(env.fake.actionLines()).toEqual(['update horizontalpodautoscalers/status default/web']);
    const h = stored(env);
    expect(h.status).toMatchObject({
      currentReplicas: 2,
      desiredReplicas: 4,
      lastScaleTime: '2026-01-01T00:00:00Z',
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 100, averageValue: '100m' } } }],
    });
    expect(conditions(h)).toEqual([
      'AbleToScale=True SucceededRescale: the HPA controller was able to update the target scale to 4',
      'ScalingActive=True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
      'ScalingLimited=False DesiredWithinRange: the desired count is within the acceptable range',
    ]);
    await env.stop();
  });

  it('an AverageValue target scales on raw usage, requests aside: status averageValue, reason "cpu resource"', async () => {
    const h = hpa({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '100m' } } }] });
    // No requests at all: a Utilization target would fail; 150m per pod against 100m is 1.5x.
    const { env, c, scales } = await setup(h, [pod('web-1', '0'), pod('web-2', '0')], 2, { 'web-1': 150, 'web-2': 150 });
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web', 'update deployments/scale default/web replicas=3']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulRescale New size: 3; reason: cpu resource above target']);
    expect(stored(env).status?.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '150m' } } }]);
    expect(conditions(stored(env))[1]).toBe('ScalingActive=True ValidMetricFound: the HPA was able to successfully calculate a replica count from cpu resource');
    await env.stop();
  });

  it('keeps the size within the tolerance, and a second sync writes nothing', async () => {
    const { env, c, scales } = await setup(hpa(), [pod('web-1'), pod('web-2')], 2, { 'web-1': 52, 'web-2': 50 });
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web']);
    expect(env.recorder.events).toEqual([]);
    expect(stored(env).status).toMatchObject({ currentReplicas: 2, desiredReplicas: 2 });
    expect(conditions(stored(env))[0]).toBe('AbleToScale=True ReadyForNewScale: recommended size matches current size');
    env.fake.clearActions();
    // The informer has the written status now; nothing changed, nothing is written.
    await new Promise((r) => setTimeout(r, 10));
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });

  it('scales down at once with a zero stabilization window', async () => {
    const h = hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } } });
    const { env, c, scales } = await setup(h, [pod('web-1'), pod('web-2'), pod('web-3'), pod('web-4')], 4, { 'web-1': 1, 'web-2': 1, 'web-3': 1, 'web-4': 1 });
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web', 'update deployments/scale default/web replicas=1']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulRescale New size: 1; reason: All metrics below target']);
    expect(stored(env).status).toMatchObject({ currentReplicas: 4, desiredReplicas: 1 });
    await env.stop();
  });

  it('without metrics: FailedGetResourceMetric and FailedComputeMetricsReplicas, ScalingActive False, no rescale', async () => {
    const { env, c, scales } = await setup(hpa(), [pod('web-1')], 1, {});
    // The error is logged and retried at the sync period, as upstream's fixed-interval queue does.
    await c.sync('default/web');
    expect(c.queue.len()).toBe(0);
    await env.clock.advance(15_000);
    expect(c.queue.len()).toBe(1);
    expect(scales.calls).toEqual(['get deployments/scale default/web']);
    const err = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    expect(env.recorder.events).toEqual([
      `Warning FailedGetResourceMetric ${err}`,
      `Warning FailedComputeMetricsReplicas invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${err}`,
    ]);
    expect(conditions(stored(env))).toEqual([
      "AbleToScale=True SucceededGetScale: the HPA controller was able to get the target's current scale",
      `ScalingActive=False FailedGetResourceMetric: the HPA was unable to compute the replica count: ${err}`,
    ]);
    await env.stop();
  });

  it('a pod without a CPU request: the missing request named, nothing scaled', async () => {
    const bare = pod('web-1');
    delete bare.spec!.containers[0]!.resources;
    const { env, c, scales } = await setup(hpa(), [bare], 1, { 'web-1': 100 });
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web']);
    expect(env.recorder.events[0]).toBe('Warning FailedGetResourceMetric failed to get cpu utilization: missing request for cpu in container web of Pod web-1');
    await env.stop();
  });

  it('a target outside [min, max] is brought back without reading metrics', async () => {
    const { env, c, scales } = await setup(hpa(), [pod('web-1')], 8, {});
    await c.sync('default/web');
    expect(scales.calls).toEqual(['get deployments/scale default/web', 'update deployments/scale default/web replicas=5']);
    expect(env.recorder.events).toEqual(['Normal SuccessfulRescale New size: 5; reason: Current number of replicas above Spec.MaxReplicas']);
    await env.stop();
  });

  it('an unknown target kind: FailedGetScale', async () => {
    const { env, c } = await setup(hpa({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Widget', name: 'web' } }), [], 1, {});
    await c.sync('default/web');
    expect(env.recorder.events).toEqual(['Warning FailedGetScale no matches for kind "Widget" in group "apps"']);
    expect(conditions(stored(env))[0]).toBe('AbleToScale=False FailedGetScale: the HPA controller was unable to get the target\'s current scale: no matches for kind "Widget" in group "apps"');
    await env.stop();
  });
});
