// framework.Resource: the quantities the scheduler adds and compares as
// integers (cpu in millicores, everything else in base units), and the pod
// request rules of component-helpers' resource.PodRequests.

import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, parseQuantity, type Container, type Node, type Pod, type ResourceList } from '@kubelab/api';

// Upstream reads Quantity.MilliValue() for cpu and Value() for the rest, both rounding up.
const milliValue = (q: string | number): number => parseQuantity(String(q)).milliValue();
const quantityValue = (q: string | number): number => parseQuantity(String(q)).value();

export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended resources (e.g. `example.com/gpu`, hugepages-*), base units. */
  scalar: Map<string, number> | undefined;
}

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: undefined };
}

export function cloneResource(r: Resource): Resource {
  return { milliCPU: r.milliCPU, memory: r.memory, ephemeralStorage: r.ephemeralStorage, scalar: r.scalar && new Map(r.scalar) };
}

/** Resources the scheduler accounts as scalars: everything but cpu, memory, ephemeral-storage and pods. */
export function isScalarResourceName(name: string): boolean {
  return name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage' && name !== 'pods';
}

export function resourceFromList(list: ResourceList | undefined): Resource {
  const r = emptyResource();
  if (!list) return r;
  for (const [name, q] of Object.entries(list)) {
    if (name === 'cpu') r.milliCPU = milliValue(q);
    else if (name === 'memory') r.memory = quantityValue(q);
    else if (name === 'ephemeral-storage') r.ephemeralStorage = quantityValue(q);
    else if (name !== 'pods') (r.scalar ??= new Map()).set(name, quantityValue(q));
  }
  return r;
}

/** dst += src * sign */
export function addResource(dst: Resource, src: Resource, sign = 1): void {
  dst.milliCPU += sign * src.milliCPU;
  dst.memory += sign * src.memory;
  dst.ephemeralStorage += sign * src.ephemeralStorage;
  if (src.scalar) {
    dst.scalar ??= new Map();
    for (const [k, v] of src.scalar) dst.scalar.set(k, (dst.scalar.get(k) ?? 0) + sign * v);
  }
}

/** dst = max(dst, src) per resource. */
function maxResource(dst: Resource, src: Resource): void {
  dst.milliCPU = Math.max(dst.milliCPU, src.milliCPU);
  dst.memory = Math.max(dst.memory, src.memory);
  dst.ephemeralStorage = Math.max(dst.ephemeralStorage, src.ephemeralStorage);
  if (src.scalar) {
    dst.scalar ??= new Map();
    for (const [k, v] of src.scalar) dst.scalar.set(k, Math.max(dst.scalar.get(k) ?? 0, v));
  }
}

/** A container's requests; a resource with only a limit is requested at the limit, as API defaulting does. */
function containerRequests(c: Container, nonZero: boolean): Resource {
  const list: ResourceList = { ...c.resources?.limits, ...c.resources?.requests };
  const r = resourceFromList(list);
  if (nonZero) {
    if (list.cpu === undefined) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (list.memory === undefined) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/**
 * The pod's effective request: the sum of its containers (plus sidecar init
 * containers), or the largest init container step if bigger, plus overhead.
 * With `nonZero`, containers without cpu/memory requests count the defaults.
 */
export function podRequests(pod: Pod, nonZero = false): Resource {
  // Pods are immutable in the scheduler; the containers array identifies the
  // request across the copies made for assuming (resources are never mutated).
  const memoKey = pod.spec?.containers;
  const memo = memoKey && (nonZero ? NON_ZERO_MEMO : MEMO).get(memoKey);
  if (memo && memo.overhead === pod.spec?.overhead && memo.init === pod.spec?.initContainers) return cloneResource(memo.r);
  const r = computePodRequests(pod, nonZero);
  if (memoKey) (nonZero ? NON_ZERO_MEMO : MEMO).set(memoKey, { r: cloneResource(r), overhead: pod.spec?.overhead, init: pod.spec?.initContainers });
  return r;
}

interface Memo {
  r: Resource;
  overhead: ResourceList | undefined;
  init: Container[] | undefined;
}
const MEMO = new WeakMap<object, Memo>();
const NON_ZERO_MEMO = new WeakMap<object, Memo>();

function computePodRequests(pod: Pod, nonZero: boolean): Resource {
  const spec = pod.spec;
  const reqs = emptyResource();
  if (!spec) return reqs;
  for (const c of spec.containers ?? []) addResource(reqs, containerRequests(c, nonZero));
  const sidecars = emptyResource();
  const initMax = emptyResource();
  for (const c of spec.initContainers ?? []) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      addResource(sidecars, r);
      maxResource(initMax, cloneResource(sidecars));
    } else {
      const step = cloneResource(r);
      addResource(step, sidecars);
      maxResource(initMax, step);
    }
  }
  addResource(reqs, sidecars);
  maxResource(reqs, initMax);
  if (spec.overhead) addResource(reqs, resourceFromList(spec.overhead));
  return reqs;
}

/** status.allocatable (falling back to capacity) and the pod count it allows. */
export function nodeAllocatable(node: Node): { allocatable: Resource; allowedPodNumber: number } {
  const list = node.status?.allocatable ?? node.status?.capacity;
  const pods = list?.pods;
  return { allocatable: resourceFromList(list), allowedPodNumber: pods === undefined ? 0 : quantityValue(pods) };
}
