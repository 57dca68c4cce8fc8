// The horizontal pod autoscaler's replica count for a resource utilization
// target (upstream pkg/controller/podautoscaler/replica_calculator.go
// GetResourceReplicas and metrics' GetResourceUtilizationRatio), as a pure
// function: pods are grouped into ready ones with metrics, unready ones
// (not Ready, or still starting for CPU) and ones without metrics; within
// the tolerance the count stays; otherwise the ratio is recomputed with the
// missing pods assumed at their request (scaling down) or idle (scaling
// up), and the unready ones idle when scaling up, and a recomputed ratio
// that changes direction keeps the current count.

/** upstream's --horizontal-pod-autoscaler-tolerance default. */
export const DEFAULT_TOLERANCE = 0.1;

export interface PodSample {
  name: string;
  /** Ready and past the CPU initialization period: its metric counts as measured. */
  ready: boolean;
  /** Being deleted or Failed: left out entirely. */
  ignored: boolean;
  /** The sum of its containers' requests of the resource (milli-units); undefined when a container has none. */
  request: number | undefined;
  /** The container that has no request, for the error text. */
  missingRequestContainer?: string;
}

export interface ResourceReplicasInput {
  currentReplicas: number;
  /** The target's averageUtilization (percent of request). */
  targetUtilization: number;
  resource: string;
  pods: readonly PodSample[];
  /** Usage by pod name (milli-units), from metrics.k8s.io. */
  metrics: ReadonlyMap<string, number>;
  tolerance?: number;
}

export interface ResourceReplicas {
  replicas: number;
  /** The measured utilization (percent of request, floored) of the ready pods. */
  utilization: number;
  /** Average usage per measured pod (milli-units). */
  rawAverage: number;
}

/** Usage over requests of the pods present in both (upstream GetResourceUtilizationRatio). */
export function utilizationRatio(metrics: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let usage = 0;
  let requested = 0;
  let n = 0;
  for (const [pod, value] of metrics) {
    const r = requests.get(pod);
    if (r === undefined) continue;
    usage += value;
    requested += r;
    n++;
  }
  if (requested === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((usage * 100) / requested);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(usage / n) };
}

export function resourceReplicas(i: ResourceReplicasInput): ResourceReplicas {
  const tolerance = i.tolerance ?? DEFAULT_TOLERANCE;
  if (i.pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const requests = new Map<string, number>();
  for (const p of i.pods) {
    if (p.request === undefined) throw new Error(`missing request for ${i.resource} in container ${p.missingRequestContainer ?? ''} of Pod ${p.name}`);
    requests.set(p.name, p.request);
  }
  const metrics = new Map<string, number>();
  const unready: string[] = [];
  const missing: string[] = [];
  let readyCount = 0;
  for (const p of i.pods) {
    if (p.ignored) continue;
    const m = i.metrics.get(p.name);
    if (m === undefined) missing.push(p.name);
    else if (!p.ready) unready.push(p.name);
    else {
      metrics.set(p.name, m);
      readyCount++;
    }
  }
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const { ratio, utilization, rawAverage } = utilizationRatio(metrics, requests, i.targetUtilization);
  const scaleUpWithUnready = unready.length > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.length === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) return { replicas: i.currentReplicas, utilization, rawAverage };
    return { replicas: Math.ceil(ratio * readyCount), utilization, rawAverage };
  }
  if (missing.length > 0) {
    for (const name of missing) {
      const r = requests.get(name)!;
      // Scaling down: a pod without metrics counts at its request or the target, whichever is higher; scaling up: idle.
      if (ratio < 1.0) metrics.set(name, Math.max(r, (r * i.targetUtilization) / 100));
      else if (ratio > 1.0) metrics.set(name, 0);
    }
  }
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, 0);
  const again = utilizationRatio(metrics, requests, i.targetUtilization).ratio;
  if (Math.abs(1.0 - again) <= tolerance || (ratio < 1.0 && again > 1.0) || (ratio > 1.0 && again < 1.0)) return { replicas: i.currentReplicas, utilization, rawAverage };
  const replicas = Math.ceil(again * metrics.size);
  // A recomputed count against the ratio's direction is no change.
  if ((again < 1.0 && replicas > i.currentReplicas) || (again > 1.0 && replicas < i.currentReplicas)) return { replicas: i.currentReplicas, utilization, rawAverage };
  return { replicas, utilization, rawAverage };
}

export interface RawResourceReplicasInput {
  currentReplicas: number;
  /** The target's averageValue (milli-units per pod). */
  targetAverage: number;
  pods: readonly PodSample[];
  /** Usage by pod name (milli-units), from metrics.k8s.io. */
  metrics: ReadonlyMap<string, number>;
  tolerance?: number;
}

/** The average of the pods' usage over the target (upstream GetMetricUsageRatio): the ratio and the average (milli-units, floored). */
export function usageRatio(metrics: ReadonlyMap<string, number>, target: number): { ratio: number; average: number } {
  let total = 0;
  for (const v of metrics.values()) total += v;
  const average = Math.trunc(total / metrics.size);
  return { ratio: average / target, average };
}

/**
 * An averageValue target (upstream GetRawResourceReplicas and
 * calcPlainMetricReplicas): no requests involved; pods without metrics count
 * at the target when scaling down and idle when scaling up, unready ones
 * idle when scaling up, with the same tolerance and direction rules.
 */
export function rawResourceReplicas(i: RawResourceReplicasInput): { replicas: number; average: number } {
  const tolerance = i.tolerance ?? DEFAULT_TOLERANCE;
  if (i.pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const metrics = new Map<string, number>();
  const unready: string[] = [];
  const missing: string[] = [];
  for (const p of i.pods) {
    if (p.ignored) continue;
    const m = i.metrics.get(p.name);
    if (m === undefined) missing.push(p.name);
    else if (!p.ready) unready.push(p.name);
    else metrics.set(p.name, m);
  }
  if (metrics.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const { ratio, average } = usageRatio(metrics, i.targetAverage);
  const readyCount = metrics.size;
  const scaleUpWithUnready = unready.length > 0 && ratio > 1.0;
  if (!scaleUpWithUnready && missing.length === 0) {
    if (Math.abs(1.0 - ratio) <= tolerance) return { replicas: i.currentReplicas, average };
    return { replicas: Math.ceil(ratio * readyCount), average };
  }
  for (const name of missing) metrics.set(name, ratio < 1.0 ? i.targetAverage : 0);
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, 0);
  const again = usageRatio(metrics, i.targetAverage).ratio;
  if (Math.abs(1.0 - again) <= tolerance || (ratio < 1.0 && again > 1.0) || (ratio > 1.0 && again < 1.0)) return { replicas: i.currentReplicas, average };
  const replicas = Math.ceil(again * metrics.size);
  if ((again < 1.0 && replicas > i.currentReplicas) || (again > 1.0 && replicas < i.currentReplicas)) return { replicas: i.currentReplicas, average };
  return { replicas, average };
}
