// The autoscaling controllers (upstream startHPAController): the horizontal
// pod autoscaler, with --concurrent-horizontal-pod-autoscaler-syncs workers.
// It reads scales and metrics over the apiserver's REST API; without one
// (no --kubeconfig) every HPA reports FailedGetScale saying so.

import { HorizontalController } from './podautoscaler/horizontal-controller.js';
import type { ResourceMetricsClient, ScaleClient } from './podautoscaler/metrics.js';
import { restMetricsClient, restScaleClient } from './podautoscaler/rest.js';
import type { ControllerRegistry } from './registry.js';

const NO_REST = 'the controller manager has no REST connection to the apiserver (it needs --kubeconfig)';
const unavailable = (): Promise<never> => Promise.reject(new Error(NO_REST));
const noScales: ScaleClient = { get: unavailable, update: unavailable };
const noMetrics: ResourceMetricsClient = { getResourceMetric: unavailable };

export function registerAutoscalingControllers(r: ControllerRegistry): ControllerRegistry {
  return r.register({
    name: 'horizontal-pod-autoscaler-controller',
    aliases: ['horizontalpodautoscaling'],
    serviceAccount: 'horizontal-pod-autoscaler',
    workers: (c) => c.concurrentHpaSyncs,
    create: (ctx) => new HorizontalController(ctx, ctx.rest ? { scales: restScaleClient(ctx.rest), metrics: restMetricsClient(ctx.rest) } : { scales: noScales, metrics: noMetrics }),
  });
}
