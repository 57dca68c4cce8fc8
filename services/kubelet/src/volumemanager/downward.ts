// Downward API values (upstream pkg/fieldpath and pkg/api/v1/resource): pod
// metadata by field path and container resources by resource name, shared by
// env `fieldRef`/`resourceFieldRef` and downwardAPI/projected volume files.

import { Quantity, type Container, type Pod, type ResourceFieldSelector } from '@kubelab/api';

/** `k="v"` lines, keys sorted, as upstream FormatMap prints labels and annotations. */
export function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n');
}

/** Metadata by field path (upstream ExtractFieldPathAsString); throws the upstream error for anything else. */
export function extractFieldPath(pod: Pod, fieldPath: string): string {
  const sub = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(fieldPath);
  if (sub) {
    const map = sub[1] === 'metadata.labels' ? pod.metadata.labels : pod.metadata.annotations;
    return map?.[sub[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.annotations':
      return formatMap(pod.metadata.annotations);
    case 'metadata.labels':
      return formatMap(pod.metadata.labels);
    case 'metadata.name':
      return pod.metadata.name ?? '';
    case 'metadata.namespace':
      return pod.metadata.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata.uid ?? '';
  }
  throw new Error(`unsupported fieldPath: ${fieldPath}`);
}

export interface PodFieldContext {
  podIPs: string[];
  hostIPs: string[];
}

/** Env fieldRef values: the pod-level fields first, then metadata (upstream podFieldSelectorRuntimeValue). */
export function podFieldValue(pod: Pod, fieldPath: string, ctx: PodFieldContext): string {
  switch (fieldPath) {
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return ctx.hostIPs[0] ?? '';
    case 'status.hostIPs':
      return ctx.hostIPs.join(',');
    case 'status.podIP':
      return ctx.podIPs[0] ?? '';
    case 'status.podIPs':
      return ctx.podIPs.join(',');
  }
  return extractFieldPath(pod, fieldPath);
}

const DEFAULTED = ['cpu', 'memory', 'ephemeral-storage'];

/** The container with unset cpu/memory/ephemeral-storage limits taken from node allocatable (upstream defaultPodLimitsForDownwardAPI). */
export function withDefaultLimits(c: Container, allocatable: Record<string, string>): Container {
  const limits = { ...(c.resources?.limits ?? {}) };
  for (const r of DEFAULTED) if (limits[r] === undefined && allocatable[r] !== undefined) limits[r] = allocatable[r]!;
  return { ...c, resources: { ...c.resources, limits } };
}

function quantity(v: string | undefined): Quantity {
  return v === undefined ? Quantity.zero() : (Quantity.tryParse(v) ?? Quantity.zero());
}

/** One container resource as a string in divisor units, rounded up (upstream ExtractContainerResourceValue). */
export function containerResourceValue(fs: ResourceFieldSelector, c: Container): string {
  const divisor = fs.divisor && !quantity(fs.divisor).isZero() ? quantity(fs.divisor) : Quantity.parse('1');
  const m = /^(limits|requests)\.(.+)$/.exec(fs.resource);
  if (m) {
    const name = m[2]!;
    const q = quantity((m[1] === 'limits' ? c.resources?.limits : c.resources?.requests)?.[name]);
    if (name === 'cpu') return String(Math.ceil(q.milliValue() / divisor.milliValue()));
    if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) return String(Math.ceil(q.value() / divisor.value()));
  }
  throw new Error(`unsupported container resource : ${fs.resource}`);
}

/** resourceFieldRef by container name, or of the given container when it names none (upstream containerResourceRuntimeValue). */
export function resourceFieldValue(fs: ResourceFieldSelector, pod: Pod, self: Container | undefined, allocatable: Record<string, string>): string {
  let c = self;
  if (fs.containerName) {
    c = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === fs.containerName);
    if (!c) throw new Error(`failed to find container with name ${fs.containerName}`);
  }
  if (!c) throw new Error(`failed to find container with name ${fs.containerName ?? ''}`);
  return containerResourceValue(fs, withDefaultLimits(c, allocatable));
}
