// Node status as the kubelet reports it (upstream pkg/kubelet/nodestatus
// setters.go and kubelet_node_status.go): pure functions from what the
// kubelet knows (machine, runtime health, PLEG health) to conditions,
// capacity, addresses and nodeInfo, plus the "did anything change" test that
// decides whether a status update is due before the report frequency.

import { formatTime, type ContainerImage, type Node, type NodeCondition, type NodeStatus, type NodeSystemInfo, type Taint } from '@kubelab/api';

export interface RuntimeHealthInput {
  /** Last time a runtime Status call said the runtime is ready (0 = never). */
  lastBaseRuntimeSync: number;
  /** How long without a good Status call before "container runtime is down". */
  baseRuntimeSyncThresholdMs: number;
  /** From Status: RuntimeReady false. */
  runtimeNotReady?: { reason: string; message: string };
  /** From Status: NetworkReady false. */
  networkNotReady?: { reason: string; message: string };
  /** PLEG health: undefined when healthy. */
  plegError?: string;
  now: number;
}

/** Upstream runtimeState.runtimeErrors + networkErrors, in order. */
export function runtimeErrors(h: RuntimeHealthInput): string[] {
  const errs: string[] = [];
  if (!h.lastBaseRuntimeSync) errs.push('container runtime status check may not have completed yet');
  else if (h.now - h.lastBaseRuntimeSync > h.baseRuntimeSyncThresholdMs) errs.push('container runtime is down');
  if (h.plegError) errs.push(`PLEG is not healthy: ${h.plegError}`);
  if (h.runtimeNotReady) errs.push(`container runtime not ready: RuntimeReady=false reason:${h.runtimeNotReady.reason} message:${h.runtimeNotReady.message}`);
  if (h.networkNotReady) errs.push(`container runtime network not ready: NetworkReady=false reason:${h.networkNotReady.reason} message:${h.networkNotReady.message}`);
  return errs;
}

/** utilerrors.NewAggregate(errs).Error(): one error as is, several as `[a, b]`. */
export function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

type CondCore = Pick<NodeCondition, 'type' | 'status' | 'reason' | 'message'>;

export function readyCondition(errs: string[]): CondCore {
  if (errs.length) return { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: aggregate(errs) };
  return { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };
}

/** MemoryPressure, DiskPressure, PIDPressure as the eviction manager reports them (upstream MemoryPressureCondition etc.). */
export function pressureConditions(p: { memory?: boolean; disk?: boolean; pid?: boolean } = {}): CondCore[] {
  return [
    p.memory
      ? { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' }
      : { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    p.disk
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }
      : { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    p.pid
      ? { type: 'PIDPressure', status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' }
      : { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  ];
}

/** Stamps heartbeat and transition times: transition only when status changed. */
export function stampConditions(conds: CondCore[], old: NodeCondition[] | undefined, now: number): NodeCondition[] {
  const ts = formatTime(now);
  return conds.map((c) => {
    const prev = old?.find((o) => o.type === c.type);
    return {
      type: c.type,
      status: c.status,
      lastHeartbeatTime: ts,
      lastTransitionTime: prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : ts,
      reason: c.reason,
      message: c.message,
    };
  });
}

export interface MachineInfo {
  cpu: number;
  memoryBytes: number;
  ephemeralStorageBytes: number;
  maxPods: number;
  nodeInfo: Omit<NodeSystemInfo, 'containerRuntimeVersion'>;
}

/** Capacity and allocatable (upstream: capacity minus the default 100Mi memory and 10% nodefs hard-eviction thresholds). */
export function resources(m: MachineInfo): Pick<NodeStatus, 'capacity' | 'allocatable'> {
  const memKi = Math.floor(m.memoryBytes / 1024);
  const storageKi = Math.floor(m.ephemeralStorageBytes / 1024);
  return {
    capacity: {
      cpu: String(m.cpu),
      'ephemeral-storage': `${storageKi}Ki`,
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: `${memKi}Ki`,
      pods: String(m.maxPods),
    },
    allocatable: {
      cpu: String(m.cpu),
      'ephemeral-storage': String(Math.floor(m.ephemeralStorageBytes * 0.9)),
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: `${Math.max(0, memKi - 100 * 1024)}Ki`,
      pods: String(m.maxPods),
    },
  };
}

export interface NodeStatusInput {
  machine: MachineInfo;
  health: RuntimeHealthInput;
  nodeIP: string;
  hostname: string;
  kubeletPort: number;
  /** `containerd://1.7.x` from CRI Version. */
  containerRuntimeVersion: string;
  images: ContainerImage[];
  /** The eviction manager's pressure conditions (absent: none). */
  pressure?: { memory?: boolean; disk?: boolean; pid?: boolean };
  old?: NodeStatus;
  now: number;
}

export function buildNodeStatus(i: NodeStatusInput): NodeStatus {
  const conds = [...pressureConditions(i.pressure), readyCondition(runtimeErrors(i.health))];
  return {
    ...resources(i.machine),
    conditions: stampConditions(conds, i.old?.conditions, i.now),
    addresses: [
      { type: 'InternalIP', address: i.nodeIP },
      { type: 'Hostname', address: i.hostname },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: i.kubeletPort } },
    nodeInfo: { ...i.machine.nodeInfo, containerRuntimeVersion: i.containerRuntimeVersion },
    images: i.images,
  };
}

/**
 * The Node's conditions after the kubelet's setters: its own replace theirs
 * in place, new ones are appended, and the rest (the Node Problem Detector's
 * KernelDeadlock, ReadonlyFilesystem, ...) stay, as upstream's setters edit
 * node.Status.Conditions by type instead of replacing the list.
 */
export function mergeConditions(current: NodeCondition[] | undefined, own: NodeCondition[] | undefined): NodeCondition[] {
  const mine = new Map((own ?? []).map((c) => [c.type, c]));
  const kept = (current ?? []).map((c) => mine.get(c.type) ?? c);
  const present = new Set(kept.map((c) => c.type));
  return [...kept, ...(own ?? []).filter((c) => !present.has(c.type))];
}

/** Whether anything but heartbeat times differs (upstream nodeStatusHasChanged). */
export function nodeStatusChanged(a: NodeStatus | undefined, b: NodeStatus): boolean {
  const strip = (s: NodeStatus | undefined) => JSON.stringify({ ...s, conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastHeartbeatTime: undefined })) });
  return strip(a) !== strip(b);
}

/** The node object registered at start (upstream initialNode). */
export function initialNode(name: string, labels: Record<string, string>, os: string, arch: string, taints: Taint[] = []): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': arch,
        'beta.kubernetes.io/os': os,
        'kubernetes.io/arch': arch,
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': os,
        ...labels,
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: taints.length ? { taints } : {},
  };
}

/** Go's GOARCH for Node's process.arch. */
export function goArch(arch: string): string {
  return ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' } as Record<string, string>)[arch] ?? arch;
}
