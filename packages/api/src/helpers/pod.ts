// Pod helpers (k8s.io/kubernetes/pkg/api/v1/pod, component-helpers/resource,
// pkg/apis/core/v1/helper/qos): conditions, readiness, requests, QoS class.
import type { Container, Pod, PodCondition, PodConditionType, PodQOSClass, PodStatus, ResourceList } from '../core/v1/types.js';
import { conditionOfType } from './conditions.js';
import { Quantity } from '../resource/quantity.js';
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST } from './wellknown.js';

/** GetPodCondition: the condition of a type and its index (-1 when absent). */
export function getPodCondition(status: PodStatus | undefined, type: PodConditionType): { index: number; condition?: PodCondition } {
  return conditionOfType(status?.conditions, type);
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod.status, 'Ready').condition?.status === 'True';
}

/** IsPodAvailable: ready for at least minReadySeconds at `now` (ms since epoch). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const c = getPodCondition(pod.status, 'Ready').condition;
  if (c?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

/** Succeeded or Failed: a pod in this phase will not run again (a string, for untyped objects and old statuses). */
export function isTerminalPhase(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Succeeded or Failed: the pod will not run again. */
export function isPodTerminal(pod: Pod): boolean {
  return isTerminalPhase(pod.status?.phase);
}

/** controller.IsPodActive: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;
}

/**
 * maxContainerRestarts (controller ActivePods ordering): the highest restart
 * count among regular containers, and separately among restartable init
 * ("sidecar") containers, which only break ties.
 */
export function maxContainerRestarts(pod: Pod): { regular: number; sidecar: number } {
  let regular = 0;
  for (const s of pod.status?.containerStatuses ?? []) regular = Math.max(regular, s.restartCount ?? 0);
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  let sidecar = 0;
  for (const s of pod.status?.initContainerStatuses ?? []) if (sidecars.has(s.name)) sidecar = Math.max(sidecar, s.restartCount ?? 0);
  return { regular, sidecar };
}

/**
 * UpdatePodCondition semantics: sets `cond` on the status, keeping
 * lastTransitionTime when the status did not change. Returns true when anything changed.
 */
export function setPodCondition(status: PodStatus, cond: PodCondition): boolean {
  status.conditions ??= [];
  const { index, condition: old } = getPodCondition(status, cond.type);
  if (!old) {
    status.conditions.push(cond);
    return true;
  }
  const next: PodCondition = { ...cond };
  if (old.status === cond.status) next.lastTransitionTime = old.lastTransitionTime;
  const changed =
    old.status !== next.status || old.reason !== next.reason || old.message !== next.message || old.lastTransitionTime !== next.lastTransitionTime || old.lastProbeTime !== next.lastProbeTime;
  status.conditions[index] = next;
  return changed;
}

function addInto(sum: Map<string, Quantity>, list: ResourceList | Map<string, Quantity> | undefined): void {
  const entries = list instanceof Map ? [...list] : Object.entries(list ?? {}).map(([k, v]) => [k, Quantity.tryParse(v)] as const);
  for (const [k, q] of entries) {
    if (!q) continue;
    const cur = sum.get(k);
    sum.set(k, cur ? cur.add(q) : q);
  }
}

function maxInto(acc: Map<string, Quantity>, list: Map<string, Quantity>): void {
  for (const [k, q] of list) {
    const cur = acc.get(k);
    if (!cur || q.cmp(cur) > 0) acc.set(k, q);
  }
}

export interface PodRequestsOptions {
  /** Use the scheduler's 100m CPU / 200Mi memory for containers that request none. */
  nonMissingContainerRequests?: boolean;
  /** Leave out spec.overhead. */
  excludeOverhead?: boolean;
}

function containerRequests(c: Container, opts: PodRequestsOptions): Map<string, Quantity> {
  const m = new Map<string, Quantity>();
  addInto(m, c.resources?.requests);
  if (opts.nonMissingContainerRequests) {
    if (!m.has('cpu')) m.set('cpu', Quantity.fromMilli(DEFAULT_MILLI_CPU_REQUEST));
    if (!m.has('memory')) m.set('memory', Quantity.fromValue(DEFAULT_MEMORY_REQUEST, 'BinarySI'));
  }
  return m;
}

/**
 * PodRequests: sum of app containers (and restartable init "sidecars"), then
 * the max with each regular init container (plus sidecars started before it), plus overhead.
 */
export function podRequests(pod: Pod, opts: PodRequestsOptions = {}): Map<string, Quantity> {
  const reqs = new Map<string, Quantity>();
  for (const c of pod.spec?.containers ?? []) addInto(reqs, containerRequests(c, opts));
  const sidecars = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of pod.spec?.initContainers ?? []) {
    const cr = containerRequests(c, opts);
    let effective: Map<string, Quantity>;
    if (c.restartPolicy === 'Always') {
      addInto(reqs, cr);
      addInto(sidecars, cr);
      effective = new Map(sidecars);
    } else {
      effective = new Map();
      addInto(effective, cr);
      addInto(effective, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(reqs, initMax);
  if (!opts.excludeOverhead) addInto(reqs, pod.spec?.overhead);
  return reqs;
}

const QOS_RESOURCES = ['cpu', 'memory'];

/** GetPodQOS: Guaranteed when every container limits cpu and memory with equal requests; BestEffort with none; else Burstable. */
export function podQOSClass(pod: Pod): PodQOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  for (const c of all) {
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) {
      const q = Quantity.tryParse(v);
      if (QOS_RESOURCES.includes(k) && q && q.sign() > 0) addInto(requests, new Map([[k, q]]));
    }
    const limited = new Set<string>();
    for (const [k, v] of Object.entries(c.resources?.limits ?? {})) {
      const q = Quantity.tryParse(v);
      if (QOS_RESOURCES.includes(k) && q && q.sign() > 0) {
        limited.add(k);
        addInto(limits, new Map([[k, q]]));
      }
    }
    if (!QOS_RESOURCES.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [k, q] of requests) {
      const l = limits.get(k);
      if (!l || l.cmp(q) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && limits.size === requests.size ? 'Guaranteed' : 'Burstable';
}

/** Every container of a pod: init, regular and ephemeral (upstream podutil.VisitContainers with AllContainers). */
function allContainers(pod: Pod): Container[] {
  const s = pod.spec;
  return [...(s?.initContainers ?? []), ...(s?.containers ?? []), ...(s?.ephemeralContainers ?? [])];
}

/** The names of the objects of one kind a pod refers to through env, envFrom, volumes and projected sources (and, for Secrets, imagePullSecrets). */
function referencedNames(pod: Pod, kind: 'secret' | 'configMap'): Set<string> {
  const out = new Set<string>();
  const add = (name: string | undefined) => void (name && out.add(name));
  const secrets = kind === 'secret';
  if (secrets) for (const s of pod.spec?.imagePullSecrets ?? []) add(s.name);
  for (const c of allContainers(pod)) {
    for (const e of c.envFrom ?? []) add(secrets ? e.secretRef?.name : e.configMapRef?.name);
    for (const e of c.env ?? []) add(secrets ? e.valueFrom?.secretKeyRef?.name : e.valueFrom?.configMapKeyRef?.name);
  }
  for (const v of pod.spec?.volumes ?? []) {
    add(secrets ? v.secret?.secretName : v.configMap?.name);
    for (const p of v.projected?.sources ?? []) add(p[kind]?.name);
  }
  return out;
}

/**
 * The names of the Secrets a pod refers to (upstream podutil.VisitPodSecretNames):
 * imagePullSecrets, env and envFrom of every container, secret volumes and
 * projected secret sources. The kubelet watches these; the Node authorizer lets the node read them.
 */
export function podSecretNames(pod: Pod): Set<string> {
  return referencedNames(pod, 'secret');
}

/** The names of the ConfigMaps a pod refers to (upstream podutil.VisitPodConfigmapNames): env, envFrom, configMap volumes and projected sources. */
export function podConfigMapNames(pod: Pod): Set<string> {
  return referencedNames(pod, 'configMap');
}
