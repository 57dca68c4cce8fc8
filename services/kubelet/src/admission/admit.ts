// Pod admission on the node (upstream pkg/kubelet/lifecycle predicateAdmitHandler
// and the eviction manager's Admit): before a pod bound here starts, the kubelet
// checks it against what the node already runs. A pod placed by hand
// (`spec.nodeName`) or a stale scheduling decision can be rejected: the pod
// fails with the first reason (OutOfcpu, NodeAffinity, Evicted, ...) and
// "Pod was rejected: <message>", and nothing starts.

import { findUntoleratedTaint, parseQuantity, podMatchesNodeSelectorAndAffinityTerms, podQOSClass, podRequests, type Node, type Pod, type Quantity } from '@kubelab/api';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

const ADMIT: AdmitResult = { admit: true };

/** The upstream predicate names and reasons the kubelet reports. */
export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const ERR_NODE_NAME = "node(s) didn't match the requested node name";
export const ERR_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
export const ERR_TAINTS = "node(s) had taints that the pod didn't tolerate";

/** Resources the fit check compares, in upstream's order, with the unit they are counted in. */
const FIT_RESOURCES: { name: string; amount: (q: Quantity) => number }[] = [
  { name: 'cpu', amount: (q) => q.milliValue() },
  { name: 'memory', amount: (q) => q.value() },
  { name: 'ephemeral-storage', amount: (q) => q.value() },
];

const OUT_OF: Record<string, string> = { cpu: 'OutOfcpu', memory: 'OutOfmemory', 'ephemeral-storage': 'OutOfephemeral-storage', pods: 'OutOfpods' };

function insufficient(resource: string, requested: number, used: number, capacity: number): AdmitResult {
  return {
    admit: false,
    reason: OUT_OF[resource] ?? `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

function predicateFailed(name: string, desc: string): AdmitResult {
  return { admit: false, reason: name, message: `Predicate ${name} failed: ${desc}` };
}

interface HostPortUse {
  ip: string;
  protocol: string;
  port: number;
}

function hostPorts(pod: Pod): HostPortUse[] {
  const out: HostPortUse[] = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) if (p.hostPort) out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol ?? 'TCP', port: p.hostPort });
  }
  return out;
}

/** What an admitted pod takes from the node: its requests of the fit resources (by name, in their amounts) and its host ports. */
interface PodUsage {
  requests: [string, number][];
  hostPorts: HostPortUse[];
}

/** Usage of frozen pods (the informer's objects never change): each admission reads the other pods' from here, not from their specs again. */
const frozenUsage = new WeakMap<Pod, PodUsage>();

function usageOf(p: Pod): PodUsage {
  const known = frozenUsage.get(p);
  if (known) return known;
  const requests = podRequests(p);
  const usage: PodUsage = { requests: [], hostPorts: hostPorts(p) };
  for (const r of FIT_RESOURCES) {
    const q = requests.get(r.name);
    if (q) usage.requests.push([r.name, r.amount(q)]);
  }
  if (Object.isFrozen(p) && Object.isFrozen(p.spec)) frozenUsage.set(p, usage);
  return usage;
}

const portsConflict = (a: HostPortUse, b: HostPortUse) => a.port === b.port && a.protocol === b.protocol && (a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0');

/**
 * GeneralPredicates as the kubelet runs them (upstream generalFilter): resources
 * against allocatable minus the requests of the pods already admitted, node
 * affinity/selector, node name, host ports, then untolerated NoExecute taints
 * (not for static pods). The first failure is the answer.
 */
export function generalAdmit(pod: Pod, node: Node, otherPods: readonly Pod[], isStatic: boolean): AdmitResult {
  const allocatable = node.status?.allocatable ?? {};
  const maxPods = allocatable.pods ? parseQuantity(allocatable.pods).value() : Infinity;
  if (otherPods.length + 1 > maxPods) return insufficient('pods', 1, otherPods.length, maxPods);

  const want = podRequests(pod);
  const used = new Map<string, number>();
  for (const p of otherPods) {
    for (const [name, amount] of usageOf(p).requests) used.set(name, (used.get(name) ?? 0) + amount);
  }
  for (const r of FIT_RESOURCES) {
    const q = want.get(r.name);
    const requested = q ? r.amount(q) : 0;
    if (requested <= 0) continue;
    const capacity = allocatable[r.name] ? r.amount(parseQuantity(allocatable[r.name]!)) : 0;
    const inUse = used.get(r.name) ?? 0;
    if (requested > capacity - inUse) return insufficient(r.name, requested, inUse, capacity);
  }

  if (!podMatchesNodeSelectorAndAffinityTerms(pod, node)) return predicateFailed('NodeAffinity', ERR_NODE_AFFINITY);
  if (pod.spec?.nodeName && pod.spec.nodeName !== node.metadata.name) return predicateFailed('NodeName', ERR_NODE_NAME);
  const taken = otherPods.flatMap((p) => usageOf(p).hostPorts);
  if (hostPorts(pod).some((w) => taken.some((t) => portsConflict(w, t)))) return predicateFailed('NodePorts', ERR_NODE_PORTS);
  if (!isStatic && findUntoleratedTaint(node.spec?.taints ?? [], pod.spec?.tolerations, (t) => t.effect === 'NoExecute')) {
    return predicateFailed('TaintToleration', ERR_TAINTS);
  }
  return ADMIT;
}

/**
 * The eviction manager's admission (upstream eviction manager Admit): under
 * node pressure, only critical pods are admitted — and under memory pressure
 * alone, any pod that is not BestEffort.
 */
export function evictionAdmit(pod: Pod, pressureConditions: readonly string[], isCritical: boolean): AdmitResult {
  if (pressureConditions.length === 0 || isCritical) return ADMIT;
  if (pressureConditions.length === 1 && pressureConditions[0] === 'MemoryPressure' && podQOSClass(pod) !== 'BestEffort') return ADMIT;
  return { admit: false, reason: 'Evicted', message: `The node had condition: [${pressureConditions.join(' ')}]. ` };
}

/** The kubelet's admit handlers in upstream order: eviction first, then the general predicates. */
export function canAdmitPod(pod: Pod, node: Node, otherPods: readonly Pod[], pressureConditions: readonly string[], flags: { isStatic: boolean; isCritical: boolean }): AdmitResult {
  const e = evictionAdmit(pod, pressureConditions, flags.isCritical);
  if (!e.admit) return e;
  return generalAdmit(pod, node, otherPods, flags.isStatic);
}

/** The status message of a rejected pod (upstream rejectPod). */
export const rejectedMessage = (message: string) => `Pod was rejected: ${message}`;
