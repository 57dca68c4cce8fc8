// Pod status as the kubelet reports it (upstream kubelet_pods.go
// generateAPIPodStatus, getPhase, and status/generate.go): pure functions
// from the pod spec, the runtime's view of the pod and the last status.

import { formatTime, isTerminalPhase, podQOSClass, type Container, type ContainerState, type ContainerStatus, type Pod, type PodCondition, type PodPhase, type PodStatus } from '@kubelab/api';
import type { RuntimeContainerStatus, RuntimePodStatus } from '../kuberuntime/podstatus.js';

/** A container's last sync error (upstream ReasonCache): shown as its waiting reason. */
export interface SyncReason {
  reason: string;
  message: string;
}

export interface StatusInput {
  pod: Pod;
  runtime: RuntimePodStatus;
  /** The status last reported (or the API object's). */
  oldStatus?: PodStatus;
  /** Per container name: the last error that kept it from starting. */
  reasons?: Map<string, SyncReason>;
  /** `containerd`: the scheme of containerID. */
  runtimeName: string;
  nodeIPs: string[];
  now: number;
  /** The pod is done: every container stopped and none will restart. */
  podIsTerminal?: boolean;
  /** Fills started/ready from probe results (the prober manager). */
  applyProbes?: (pod: Pod, status: PodStatus) => void;
  /**
   * A kubelet module wants the pod failed (upstream PodSyncHandler.ShouldEvict:
   * active deadline, eviction): phase Failed with this reason and message, and
   * the condition (DisruptionTarget) if given.
   */
  evict?: { reason: string; message: string; condition?: Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'> };
}

/** `busybox:1.36` → `docker.io/library/busybox:1.36`, as containerd names images. */
export function normalizeImageName(image: string): string {
  if (!image) return image;
  const first = image.split('/')[0] ?? '';
  const hasRegistry = image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let name = hasRegistry ? image : `docker.io/${image.includes('/') ? image : `library/${image}`}`;
  const last = name.split('/').pop() ?? '';
  if (!last.includes(':') && !name.includes('@')) name += ':latest';
  return name;
}

export function isRestartableInit(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/** Whether a container should be (re)started given its runtime status (upstream ShouldContainerBeRestarted). */
export function shouldContainerBeRestarted(c: Container, pod: Pod, runtime: RuntimePodStatus): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const s = runtime.containers.find((x) => x.name === c.name);
  if (!s || s.state === 'created' || s.state === 'unknown') return true;
  if (s.state === 'running') return false;
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && s.exitCode === 0) return false;
  return true;
}

function terminatedState(s: RuntimeContainerStatus, runtimeName: string): ContainerState {
  return {
    terminated: {
      exitCode: s.exitCode,
      reason: s.reason || (s.exitCode === 0 ? 'Completed' : 'Error'),
      ...(s.message ? { message: s.message } : {}),
      startedAt: s.startedAt ? formatTime(s.startedAt) : null,
      finishedAt: s.finishedAt ? formatTime(s.finishedAt) : null,
      containerID: `${runtimeName}://${s.id}`,
    },
  };
}

function stateOf(s: RuntimeContainerStatus, runtimeName: string): ContainerState {
  switch (s.state) {
    case 'running':
      return { running: { startedAt: formatTime(s.startedAt) } };
    case 'exited':
      return terminatedState(s, runtimeName);
    case 'created':
      return { waiting: { reason: 'ContainerCreating' } };
    default:
      return { waiting: {} };
  }
}

/** Container statuses in spec order (upstream convertToAPIContainerStatuses). */
export function containerStatuses(input: StatusInput, containers: Container[], isInit: boolean): ContainerStatus[] {
  const { pod, runtime, runtimeName } = input;
  const defaultWaiting = isInit ? 'PodInitializing' : 'ContainerCreating';
  const hasInit = (pod.spec?.initContainers ?? []).some((c) => !isRestartableInit(c));
  const old = new Map(
    [...(input.oldStatus?.containerStatuses ?? []), ...(input.oldStatus?.initContainerStatuses ?? []), ...(input.oldStatus?.ephemeralContainerStatuses ?? [])].map((s) => [s.name, s]),
  );
  return containers.map((c) => {
    const all = runtime.containers.filter((s) => s.name === c.name);
    const newest = all[0];
    const status: ContainerStatus = {
      name: c.name,
      state: { waiting: { reason: !isInit && hasInit && !newest ? 'PodInitializing' : defaultWaiting } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: c.image ?? '',
      imageID: '',
      started: false,
    };
    if (newest) {
      status.state = stateOf(newest, runtimeName);
      status.restartCount = newest.restartCount;
      status.image = newest.image && !newest.image.startsWith('sha256:') ? newest.image : normalizeImageName(c.image ?? '');
      status.imageID = newest.imageRef;
      status.containerID = `${runtimeName}://${newest.id}`;
      const previous = all.slice(1).find((s) => s.state === 'exited');
      if (previous) status.lastState = terminatedState(previous, runtimeName);
    } else {
      // Keep what was last reported for a container the runtime no longer has.
      const o = old.get(c.name);
      if (o?.lastState?.terminated) status.lastState = o.lastState;
      if (o) status.restartCount = o.restartCount;
    }
    // A container that failed to start shows why it waits (upstream reasonCache).
    const why = input.reasons?.get(c.name);
    if (why && shouldContainerBeRestarted(c, pod, runtime)) {
      if (status.state?.terminated) status.lastState = status.state;
      status.state = { waiting: { reason: why.reason, ...(why.message ? { message: why.message } : {}) } };
    }
    return status;
  });
}

/** The pod phase from its container statuses (upstream getPhase). */
export function getPhase(pod: Pod, init: ContainerStatus[], regular: ContainerStatus[], podIsTerminal = false): PodPhase {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of pod.spec?.initContainers ?? []) {
    if (isRestartableInit(c)) continue;
    const s = init.find((x) => x.name === c.name);
    if (!s) pendingInit++;
    else if (s.state?.running) pendingInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInit++;
      } else pendingInit++;
    } else pendingInit++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of pod.spec?.initContainers ?? []) {
    if (!isRestartableInit(c)) continue;
    const s = init.find((x) => x.name === c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      // A stopped sidecar counts only once the pod is terminal.
      if (podIsTerminal) stopped++;
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) waiting++;
    } else unknown++;
  }
  for (const c of pod.spec?.containers ?? []) {
    const s = regular.find((x) => x.name === c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || failedInit > 0) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function notReadyMessage(spec: Container[], statuses: ContainerStatus[], isInit: boolean): string | undefined {
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of spec) {
    const s = statuses.find((x) => x.name === c.name);
    if (!s) unknown.push(c.name);
    else if (isInit ? !(s.state?.terminated?.exitCode === 0) && !(isRestartableInit(c) && s.started) : !s.ready) unready.push(c.name);
  }
  const parts: string[] = [];
  if (unknown.length) parts.push(`containers with unknown status: [${unknown.join(' ')}]`);
  if (unready.length) parts.push(`containers with ${isInit ? 'incomplete' : 'unready'} status: [${unready.join(' ')}]`);
  return parts.length ? parts.join(', ') : undefined;
}

type CondCore = Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'>;

/** PodReadyToStartContainers, Initialized, Ready, ContainersReady (upstream status/generate.go). */
export function podConditions(pod: Pod, status: PodStatus, sandboxReady: boolean): CondCore[] {
  const phase = status.phase;
  const completed = phase === 'Succeeded';
  const out: CondCore[] = [{ type: 'PodReadyToStartContainers', status: sandboxReady ? 'True' : 'False' }];

  const initSpec = pod.spec?.initContainers ?? [];
  const initMsg = notReadyMessage(initSpec, status.initContainerStatuses ?? [], true);
  if (completed) out.push({ type: 'Initialized', status: 'True', reason: 'PodCompleted' });
  else if (!initSpec.length || !initMsg) out.push({ type: 'Initialized', status: 'True' });
  else out.push({ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: initMsg });

  let ready: CondCore;
  if (completed) ready = { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  else {
    const sidecars = initSpec.filter(isRestartableInit);
    const msg = [notReadyMessage(sidecars, status.initContainerStatuses ?? [], false), notReadyMessage(pod.spec?.containers ?? [], status.containerStatuses ?? [], false)].filter(Boolean).join(', ');
    ready = msg ? { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: msg } : { type: 'ContainersReady', status: 'True' };
  }
  const podReady: CondCore = { ...ready, type: 'Ready' };
  if (ready.status === 'True') {
    // Readiness gates: every named condition must be True.
    const missing = (pod.spec?.readinessGates ?? []).filter((g) => status.conditions?.find((c) => c.type === g.conditionType)?.status !== 'True');
    if (missing.length) {
      podReady.status = 'False';
      podReady.reason = 'ReadinessGatesNotReady';
      podReady.message = `corresponding condition of pod readiness gate "${missing[0]!.conditionType}" does not exist.`;
    }
  }
  out.push(podReady, ready);
  return out;
}

/** Keeps lastTransitionTime when a condition's status did not change. */
export function withTransitionTimes(conds: CondCore[], old: PodCondition[] | undefined, now: number): PodCondition[] {
  return conds.map((c) => {
    const prev = old?.find((o) => o.type === c.type);
    const lastTransitionTime = prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : formatTime(now);
    const out: PodCondition = { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime };
    if (c.reason) out.reason = c.reason;
    if (c.message) out.message = c.message;
    return out;
  });
}

/** The whole API status of a pod (upstream generateAPIPodStatus). */
export function generateAPIPodStatus(input: StatusInput): PodStatus {
  const { pod, runtime, oldStatus, now } = input;
  const initContainers = containerStatuses(input, pod.spec?.initContainers ?? [], true);
  const regular = containerStatuses(input, pod.spec?.containers ?? [], false);
  const status: PodStatus = {};
  status.phase = getPhase(pod, initContainers, regular, input.podIsTerminal);
  // A terminal phase never goes back.
  if (oldStatus && isTerminalPhase(oldStatus.phase)) status.phase = oldStatus.phase;
  // The reason and message belong to the phase: kept while it holds.
  if (oldStatus && status.phase === oldStatus.phase) {
    if (oldStatus.reason) status.reason = oldStatus.reason;
    if (oldStatus.message) status.message = oldStatus.message;
  }
  if (input.evict) {
    status.phase = 'Failed';
    status.reason = input.evict.reason;
    status.message = input.evict.message;
  }

  const sandbox = runtime.sandboxes[0];
  const sandboxReady = !!sandbox?.ready;
  if (input.nodeIPs.length) {
    status.hostIP = input.nodeIPs[0];
    status.hostIPs = input.nodeIPs.map((ip) => ({ ip }));
  }
  const podIPs = pod.spec?.hostNetwork ? input.nodeIPs : sandbox?.ip ? [sandbox.ip, ...sandbox.additionalIps] : (oldStatus?.podIPs ?? []).map((p) => p.ip);
  if (podIPs.length) {
    status.podIP = podIPs[0];
    status.podIPs = podIPs.map((ip) => ({ ip }));
  }
  status.startTime = oldStatus?.startTime ?? formatTime(now);
  if (initContainers.length) status.initContainerStatuses = initContainers;
  status.containerStatuses = regular;
  // Ephemeral containers: reported as containers are, never restarted; they take no part in the phase or readiness.
  const ephemeral = containerStatuses(input, pod.spec?.ephemeralContainers ?? [], false);
  if (ephemeral.length) status.ephemeralContainerStatuses = ephemeral;
  input.applyProbes?.(pod, status);

  const scheduled = oldStatus?.conditions?.find((c) => c.type === 'PodScheduled');
  const conds: CondCore[] = podConditions(pod, { ...status, conditions: oldStatus?.conditions ?? [] }, sandboxReady);
  const result = withTransitionTimes(conds, oldStatus?.conditions, now);
  // PodScheduled is the scheduler's; keep it (or set it for pods bound by hand).
  result.push(scheduled ?? { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatTime(now) });
  // Conditions other components own (readiness gates, DisruptionTarget) stay.
  const extra = input.evict?.condition;
  if (extra) {
    const prev = oldStatus?.conditions?.find((c) => c.type === extra.type);
    result.push({ ...extra, lastProbeTime: null, lastTransitionTime: prev && prev.status === extra.status && prev.lastTransitionTime ? prev.lastTransitionTime : formatTime(now) });
  }
  for (const c of oldStatus?.conditions ?? []) if (!result.some((r) => r.type === c.type)) result.push(c);
  status.conditions = result;
  status.qosClass = oldStatus?.qosClass ?? podQOSClass(pod);
  if (oldStatus?.nominatedNodeName) status.nominatedNodeName = oldStatus.nominatedNodeName;
  return status;
}
