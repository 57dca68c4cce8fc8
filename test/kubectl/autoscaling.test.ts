// kubectl 1.32 against HorizontalPodAutoscalers (no controller running here):
// api-resources, `kubectl autoscale` (an autoscaling/v1 object sent as
// protobuf, stored as v2), `kubectl get hpa` as upstream prints it before
// any metric is read, the same object read in both versions, and
// upstream's validation texts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { squash, startCluster, type Cluster } from './harness.js';

const run = requireTool('kubectl');

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: busybox, resources: {requests: {cpu: 100m}}}]
`;

describe.skipIf(!run)('kubectl 1.32: horizontal pod autoscalers', { timeout: 90_000 }, () => {
  let c: Cluster;

  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('api-resources lists hpa in autoscaling/v2', async () => {
    expect(squash((await c.kubectl(['api-resources', '--api-group=autoscaling'])).stdout)).toEqual([
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'horizontalpodautoscalers hpa autoscaling/v2 true HorizontalPodAutoscaler',
    ]);
  });

  it('kubectl autoscale creates one; get hpa shows the target as unknown until measured', async () => {
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: deployment })).stdout.trim()).toBe('deployment.apps/web created');
    expect((await c.kubectl(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=1', '--max=5'])).stdout.trim()).toBe('horizontalpodautoscaler.autoscaling/web autoscaled');
    expect(squash((await c.kubectl(['get', 'hpa'])).stdout)).toEqual([
      'NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE',
      expect.stringMatching(/^web Deployment\/web cpu: <unknown>\/50% 1 5 0 \d+s$/),
    ]);
    const v2 = JSON.parse((await c.kubectl(['get', 'hpa', 'web', '-o', 'json'])).stdout);
    expect(v2).toMatchObject({
      apiVersion: 'autoscaling/v2',
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      },
      status: { desiredReplicas: 0 },
    });
    const v1 = JSON.parse((await c.kubectl(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json'])).stdout);
    expect(v1).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 0, desiredReplicas: 0 } });
    expect(v1.spec.metrics).toBeUndefined();
  });

  it('refuses bounds as upstream words it', async () => {
    const bad = await c.kubectl(['apply', '-f', '-'], {
      stdin: 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: bad}\nspec: {scaleTargetRef: {kind: Deployment, name: web}, minReplicas: 0, maxReplicas: 0}\n',
    });
    expect(bad.stderr.trim()).toBe(
      'The HorizontalPodAutoscaler "bad" is invalid: \n* spec.minReplicas: Invalid value: 0: must be greater than or equal to 1\n* spec.maxReplicas: Invalid value: 0: must be greater than 0',
    );
    const below = await c.kubectl(['apply', '-f', '-'], {
      stdin: 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: bad}\nspec: {scaleTargetRef: {kind: Deployment, name: web}, minReplicas: 3, maxReplicas: 2}\n',
    });
    expect(below.stderr.trim()).toBe('The HorizontalPodAutoscaler "bad" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`');
  });
});
