// The horizontal pod autoscaler (pkg/controller/podautoscaler/horizontal.go):
// each HPA is synced one --horizontal-pod-autoscaler-sync-period after it
// changes and again every period after each sync (upstream's queue holds
// every key for the period: metrics change without any object changing). A sync reads the
// target's scale subresource, the pods its selector picks and their
// metrics.k8s.io usage, computes the replica count with the pure decisions
// beside this file, rescales the target, and writes currentReplicas,
// desiredReplicas, currentMetrics, lastScaleTime and the AbleToScale,
// ScalingActive and ScalingLimited conditions. Recommendations and scale
// events live in memory per HPA, as upstream's.

import {
  lookupKind,
  parseLabelSelector,
  Quantity,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
  type HorizontalPodAutoscalerStatus,
  type MetricSpec,
  type MetricStatus,
  type Pod,
  type Scale,
} from '@kubelab/api';
import { metaNamespaceKey, splitMetaNamespaceKey, type EventRecorder, type Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { rescaleMessage, withDefaultBehavior, type ConditionUpdate, type Recommendation, type ScaleEvent } from './behavior.js';
import type { ResourceMetricsClient, ScaleClient } from './metrics.js';
import { decideScale } from './normalize.js';
import { rawResourceReplicas, resourceReplicas } from './replica-calculator.js';
import { podSamples } from './samples.js';

const COMPONENT = 'horizontal-pod-autoscaler';

export interface HorizontalControllerDeps {
  scales: ScaleClient;
  metrics: ResourceMetricsClient;
}

/** What one metric recommends, or why it could not. */
type MetricResult = { replicas: number; status: MetricStatus; name: string } | { error: string; condition: ConditionUpdate };

interface History {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

/** Scale events older than the longest policy period (1800 s at most) no longer count. */
const MAX_PERIOD_MS = 1800_000;

export class HorizontalController extends QueueController {
  private readonly hpaLister: Lister<HorizontalPodAutoscaler>;
  private readonly podLister: Lister<Pod>;
  private readonly recorder: EventRecorder;
  private readonly history = new Map<string, History>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly deps: HorizontalControllerDeps,
  ) {
    super('horizontalpodautoscaler', ctx.logger, queueOptions(ctx));
    this.recorder = ctx.recorder(COMPONENT);
    const hpas = ctx.informers.autoscaling.horizontalPodAutoscalers({ resyncPeriodMs: ctx.config.hpaSyncPeriodMs });
    this.hpaLister = hpas.lister();
    this.podLister = ctx.informers.core.pods().lister();
    // Upstream enqueueHPA: every request waits one sync period in the queue (its fixed-interval rate limiter), so a key is processed at most once a period.
    const add = (h: HorizontalPodAutoscaler) => this.queue.addAfter(metaNamespaceKey(h), ctx.config.hpaSyncPeriodMs);
    hpas.addEventHandler({
      onAdd: add,
      onUpdate: (_o, h) => add(h),
      onDelete: (h) => {
        const key = metaNamespaceKey('obj' in h ? h.obj : h);
        this.history.delete(key);
        this.queue.forget(key);
      },
    });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.hpaLister.namespace(namespace).get(name);
    if (!cached) {
      this.history.delete(key);
      return;
    }
    try {
      await this.reconcile(key, structuredClone(cached));
    } catch (err) {
      // Upstream's queue retries at the sync period only (its fixed-interval rate limiter): the error is logged, the key requeued below.
      this.log.error('failed to sync horizontal pod autoscaler', { HPA: key, err: (err as Error).message });
    }
    // Upstream's design: every HPA is looked at again after the sync period.
    if (this.hpaLister.namespace(namespace).get(name)) this.queue.addAfter(key, this.ctx.config.hpaSyncPeriodMs);
  }

  private async reconcile(key: string, hpa: HorizontalPodAutoscaler): Promise<void> {
    const original = structuredClone(hpa.status ?? { desiredReplicas: 0 });
    const spec = hpa.spec!;
    const ns = hpa.metadata.namespace ?? '';
    const ref = spec.scaleTargetRef;
    const reference = `${ref.kind}/${ref.name}`;
    const now = this.clock.now();
    const status: HorizontalPodAutoscalerStatus = { ...original, conditions: [...(original.conditions ?? [])] };
    const setCond = (type: string, c: ConditionUpdate) => setCondition(status, type, c, now);

    const info = lookupKind(ref.apiVersion ?? '', ref.kind);
    let scale: Scale;
    try {
      if (!info?.subresources.includes('scale')) throw new Error(`no matches for kind "${ref.kind}" in group "${(ref.apiVersion ?? '').split('/').slice(0, -1).join('/')}"`);
      scale = await this.deps.scales.get(info, ns, ref.name);
    } catch (err) {
      const msg = (err as Error).message;
      this.recorder.event(hpa, 'Warning', 'FailedGetScale', msg);
      setCond('AbleToScale', { status: 'False', reason: 'FailedGetScale', message: `the HPA controller was unable to get the target's current scale: ${msg}` });
      await this.updateStatusIfNeeded(hpa, original, status);
      throw new Error(`failed to query scale subresource for ${reference}: ${msg}`, { cause: err });
    }
    setCond('AbleToScale', { status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
    const current = scale.spec?.replicas ?? 0;
    const minReplicas = spec.minReplicas ?? 1;
    const history = this.historyOf(key);

    let metricReplicas: number | undefined;
    let metricName = '';
    let currentMetrics: MetricStatus[] | undefined = status.currentMetrics;
    const inRange = current !== 0 && current <= spec.maxReplicas && current >= minReplicas;
    if (inRange) {
      const computed = await this.computeReplicasForMetrics(hpa, scale, current, now);
      if ('error' in computed) {
        status.currentReplicas = current;
        status.currentMetrics = computed.statuses;
        setCond('ScalingActive', computed.condition);
        await this.updateStatusIfNeeded(hpa, original, status);
        this.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error);
        throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${computed.error}`);
      }
      metricReplicas = computed.replicas;
      metricName = computed.name;
      currentMetrics = computed.statuses;
      setCond('ScalingActive', { status: 'True', reason: 'ValidMetricFound', message: `the HPA was able to successfully calculate a replica count from ${metricName}` });
    }

    const decision = decideScale({
      now,
      current,
      minReplicas,
      maxReplicas: spec.maxReplicas,
      metricReplicas,
      metricName,
      behavior: spec.behavior ? withDefaultBehavior(spec.behavior as Parameters<typeof withDefaultBehavior>[0]) : undefined,
      history: history.recommendations,
      scaleUpEvents: history.scaleUpEvents,
      scaleDownEvents: history.scaleDownEvents,
      downscaleStabilizationMs: this.ctx.config.hpaDownscaleStabilizationMs,
    });
    history.recommendations = decision.history;
    if (decision.scalingActive) setCond('ScalingActive', decision.scalingActive);
    if (decision.ableToScale) setCond('AbleToScale', decision.ableToScale);
    if (decision.scalingLimited) setCond('ScalingLimited', decision.scalingLimited);

    if (decision.rescale) {
      try {
        await this.deps.scales.update(info!, ns, { ...scale, spec: { ...scale.spec, replicas: decision.desired } });
      } catch (err) {
        const msg = (err as Error).message;
        this.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${decision.desired}; reason: ${decision.reason}; error: ${msg}`);
        setCond('AbleToScale', { status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${msg}` });
        status.currentReplicas = current;
        status.currentMetrics = currentMetrics;
        await this.updateStatusIfNeeded(hpa, original, status);
        throw new Error(`failed to rescale ${reference}: ${msg}`, { cause: err });
      }
      setCond('AbleToScale', { status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${decision.desired}` });
      this.recorder.event(hpa, 'Normal', 'SuccessfulRescale', rescaleMessage(decision.desired, decision.reason));
      if (spec.behavior) this.storeScaleEvent(history, now, current, decision.desired);
      this.log.info('Successfully rescaled', { HPA: key, currentReplicas: current, desiredReplicas: decision.desired, reason: decision.reason });
      status.lastScaleTime = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    status.currentReplicas = current;
    status.desiredReplicas = decision.desired;
    status.currentMetrics = currentMetrics;
    await this.updateStatusIfNeeded(hpa, original, status);
  }

  /** The highest recommendation of the metrics (upstream computeReplicasForMetrics); every metric failing is an error. */
  private async computeReplicasForMetrics(
    hpa: HorizontalPodAutoscaler,
    scale: Scale,
    current: number,
    now: number,
  ): Promise<{ replicas: number; name: string; statuses: MetricStatus[] } | { error: string; condition: ConditionUpdate; statuses: MetricStatus[] }> {
    const ns = hpa.metadata.namespace ?? '';
    const selectorText = scale.status?.selector ?? '';
    if (!selectorText) {
      this.recorder.event(hpa, 'Warning', 'SelectorRequired', 'selector is required');
      return { error: 'selector is required', condition: { status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector" }, statuses: [] };
    }
    let pods: Pod[];
    try {
      const selector = parseLabelSelector(selectorText);
      pods = this.podLister
        .namespace(ns)
        .list()
        .filter((p) => selector.matches(p.metadata.labels ?? {}));
    } catch (err) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${(err as Error).message}`;
      this.recorder.event(hpa, 'Warning', 'InvalidSelector', msg);
      return { error: msg, condition: { status: 'False', reason: 'InvalidSelector', message: msg }, statuses: [] };
    }
    const specs = hpa.spec?.metrics ?? [];
    const statuses: MetricStatus[] = [];
    let best: { replicas: number; name: string } | undefined;
    let firstInvalid: { error: string; condition: ConditionUpdate } | undefined;
    let invalid = 0;
    for (const spec of specs) {
      const r = await this.computeReplicasForMetric(hpa, spec, selectorText, pods, current, now);
      if ('error' in r) {
        firstInvalid ??= r;
        invalid++;
        statuses.push({ type: '' });
        continue;
      }
      statuses.push(r.status);
      if (!best || r.replicas > best.replicas) best = { replicas: r.replicas, name: r.name };
    }
    // Every metric failed, or some did and the others would scale down: keep the size (upstream).
    if (firstInvalid && (invalid >= specs.length || (best && best.replicas < current))) {
      return { error: `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstInvalid.error}`, condition: firstInvalid.condition, statuses };
    }
    return { replicas: best?.replicas ?? current, name: best?.name ?? '', statuses };
  }

  /** One Resource or ContainerResource metric with a utilization target (upstream computeStatusForResourceMetric). */
  private async computeReplicasForMetric(hpa: HorizontalPodAutoscaler, spec: MetricSpec, selector: string, pods: Pod[], current: number, now: number): Promise<MetricResult> {
    const source = spec.type === 'Resource' ? spec.resource : spec.type === 'ContainerResource' ? spec.containerResource : undefined;
    if (!source)
      return {
        error: `unknown metric source type "${spec.type}"`,
        condition: { status: 'False', reason: 'InvalidMetricSourceType', message: `the HPA was unable to compute the replica count: unknown metric source type "${spec.type}"` },
      };
    const container = spec.type === 'ContainerResource' ? spec.containerResource?.container : undefined;
    const prefix = `failed to get ${source.name}${container !== undefined ? ' container' : ''} resource metric value`;
    const failed = (reason: string, err: string): MetricResult => {
      this.recorder.event(hpa, 'Warning', reason, err);
      return { error: `${prefix}: ${err}`, condition: { status: 'False', reason, message: `the HPA was unable to compute the replica count: ${err}` } };
    };
    const target = source.target.averageUtilization;
    const averageValue = source.target.averageValue;
    if (target === undefined && averageValue !== undefined) return this.computeRawReplicas(source.name, averageValue, container, hpa, selector, pods, current, now, failed);
    if (target === undefined) return failed('FailedGetResourceMetric', 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
    try {
      let metrics;
      try {
        metrics = await this.deps.metrics.getResourceMetric(source.name, hpa.metadata.namespace ?? '', selector, container);
      } catch (err) {
        throw new Error(`unable to get metrics for resource ${source.name}: ${(err as Error).message}`, { cause: err });
      }
      const r = resourceReplicas({
        currentReplicas: current,
        targetUtilization: target,
        resource: source.name,
        pods: podSamples(pods, metrics, source.name, now, container),
        metrics: new Map([...metrics].map(([k, v]) => [k, v.value])),
        tolerance: this.ctx.config.hpaTolerance,
      });
      const currentValue = { averageUtilization: r.utilization, averageValue: Quantity.fromMilli(r.rawAverage).toString() };
      const status: MetricStatus =
        container !== undefined
          ? { type: 'ContainerResource', containerResource: { name: source.name, container, current: currentValue } }
          : { type: 'Resource', resource: { name: source.name, current: currentValue } };
      const name = `${source.name}${container !== undefined ? ' container' : ''} resource utilization (percentage of request)`;
      return { replicas: r.replicas, status, name };
    } catch (err) {
      return failed('FailedGetResourceMetric', `failed to get ${source.name} utilization: ${(err as Error).message}`);
    }
  }

  /** An averageValue target (upstream computeStatusForResourceMetricGeneric's AverageValue branch): status and name in raw usage. */
  private async computeRawReplicas(
    resource: string,
    averageValue: string | number,
    container: string | undefined,
    hpa: HorizontalPodAutoscaler,
    selector: string,
    pods: Pod[],
    current: number,
    now: number,
    failed: (reason: string, err: string) => MetricResult,
  ): Promise<MetricResult> {
    try {
      let metrics;
      try {
        metrics = await this.deps.metrics.getResourceMetric(resource, hpa.metadata.namespace ?? '', selector, container);
      } catch (err) {
        throw new Error(`unable to get metrics for resource ${resource}: ${(err as Error).message}`, { cause: err });
      }
      const r = rawResourceReplicas({
        currentReplicas: current,
        targetAverage: Quantity.parse(String(averageValue)).milliValue(),
        pods: podSamples(pods, metrics, resource, now, container),
        metrics: new Map([...metrics].map(([k, v]) => [k, v.value])),
        tolerance: this.ctx.config.hpaTolerance,
      });
      const currentValue = { averageValue: Quantity.fromMilli(r.average).toString() };
      const status: MetricStatus =
        container !== undefined
          ? { type: 'ContainerResource', containerResource: { name: resource, container, current: currentValue } }
          : { type: 'Resource', resource: { name: resource, current: currentValue } };
      return { replicas: r.replicas, status, name: `${resource}${container !== undefined ? ' container' : ''} resource` };
    } catch (err) {
      return failed('FailedGetResourceMetric', `failed to get ${resource} usage: ${(err as Error).message}`);
    }
  }

  private historyOf(key: string): History {
    let h = this.history.get(key);
    if (!h) this.history.set(key, (h = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] }));
    return h;
  }

  private storeScaleEvent(h: History, now: number, from: number, to: number): void {
    const fresh = (e: ScaleEvent) => e.timestamp >= now - MAX_PERIOD_MS;
    if (to > from) h.scaleUpEvents = [...h.scaleUpEvents.filter(fresh), { timestamp: now, change: to - from }];
    else h.scaleDownEvents = [...h.scaleDownEvents.filter(fresh), { timestamp: now, change: from - to }];
  }

  private async updateStatusIfNeeded(hpa: HorizontalPodAutoscaler, original: HorizontalPodAutoscalerStatus, status: HorizontalPodAutoscalerStatus): Promise<void> {
    if (JSON.stringify(original) === JSON.stringify(status)) return;
    await this.ctx.clientset.autoscaling.horizontalPodAutoscalers(hpa.metadata.namespace).updateStatus({ ...hpa, status });
  }
}

/** setCondition: a condition's lastTransitionTime moves only when its status does. */
export function setCondition(status: HorizontalPodAutoscalerStatus, type: string, c: ConditionUpdate, now: number): void {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((x) => x.type === type);
  const old = i >= 0 ? conditions[i] : undefined;
  const next: HorizontalPodAutoscalerCondition = {
    type,
    status: c.status,
    lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    reason: c.reason,
    message: c.message,
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  status.conditions = conditions;
}
