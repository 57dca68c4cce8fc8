// What SyncPod must do to bring a pod's containers to its spec (upstream
// kuberuntime_manager.go computePodActions), as a pure function of the spec,
// the runtime's view and the liveness/startup results.

import { createHash } from 'node:crypto';
import type { Container, Pod } from '@kubelab/api';
import { isRestartableInit, shouldContainerBeRestarted } from '../status/generate.js';
import type { RuntimeContainerStatus, RuntimePodStatus } from './podstatus.js';

export interface ContainerToKill {
  id: string;
  name: string;
  /** The Killing event's message. */
  message: string;
  /** Probe-specific grace period, if the probe sets one. */
  gracePeriodOverride?: number;
}

export interface PodActions {
  /** Stop every container and the sandbox. */
  killPod: boolean;
  createSandbox: boolean;
  /** The ready sandbox to run containers in (when not creating one). */
  sandboxId: string;
  /** Attempt number of the sandbox to create. */
  attempt: number;
  /** Ephemeral containers never started yet (they are never restarted). */
  ephemeralContainersToStart: string[];
  /** Init containers to start now (at most one regular init container at a time). */
  initContainersToStart: string[];
  containersToStart: string[];
  containersToKill: ContainerToKill[];
  /** A regular init container failed under restartPolicy Never: the pod failed. */
  initFailed: boolean;
}

export type ProbeResultLookup = (containerId: string) => 'Unknown' | 'Success' | 'Failure' | undefined;

/** A stable hash of the fields whose change requires a new container (upstream HashContainer). */
/** Hashes of frozen containers (the informer's objects never change): a pod's syncs hash each container once. */
const frozenHashes = new WeakMap<Container, string>();

export function hashContainer(c: Container): string {
  const known = frozenHashes.get(c);
  if (known !== undefined) return known;
  const hash = computeContainerHash(c);
  if (Object.isFrozen(c)) frozenHashes.set(c, hash);
  return hash;
}

function computeContainerHash(c: Container): string {
  const relevant = { name: c.name, image: c.image, command: c.command, args: c.args, workingDir: c.workingDir, env: c.env, ports: c.ports, tty: c.tty, stdin: c.stdin };
  return createHash('sha256').update(JSON.stringify(relevant)).digest('hex').slice(0, 8);
}

/** Whether the newest sandbox can host the pod (upstream PodSandboxChanged). */
export function podSandboxChanged(pod: Pod, status: RuntimePodStatus): { changed: boolean; attempt: number; sandboxId: string } {
  const newest = status.sandboxes[0];
  if (!newest) return { changed: true, attempt: 0, sandboxId: '' };
  const readyCount = status.sandboxes.filter((s) => s.ready).length;
  if (readyCount > 1 || !newest.ready) return { changed: true, attempt: newest.attempt + 1, sandboxId: newest.id };
  if (!pod.spec?.hostNetwork && !newest.ip) return { changed: true, attempt: newest.attempt + 1, sandboxId: newest.id };
  return { changed: false, attempt: newest.attempt, sandboxId: newest.id };
}

function newest(status: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  return status.containers.find((c) => c.name === name);
}

function containerSucceeded(c: Container, status: RuntimePodStatus): boolean {
  const s = newest(status, c.name);
  return !!s && s.state === 'exited' && s.exitCode === 0;
}

/** Whether any app container was ever created: then the init phase is over. */
export function hasAnyRegularContainerCreated(pod: Pod, status: RuntimePodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => !!newest(status, c.name));
}

/** The next regular init container to run (upstream findNextInitContainerToRun). */
export function nextInitContainer(pod: Pod, status: RuntimePodStatus): { next?: Container; done: boolean; failed: boolean; running: boolean } {
  const inits = pod.spec?.initContainers ?? [];
  if (!inits.length || hasAnyRegularContainerCreated(pod, status)) return { done: true, failed: false, running: false };
  for (const c of inits) {
    const s = newest(status, c.name);
    if (!s || s.state === 'created' || s.state === 'unknown') return { next: c, done: false, failed: false, running: false };
    if (isRestartableInit(c)) {
      if (s.state === 'running') continue;
      return { next: c, done: false, failed: false, running: false };
    }
    if (s.state === 'running') return { done: false, failed: false, running: true };
    if (s.exitCode === 0) continue;
    return { next: c, done: false, failed: true, running: false };
  }
  return { done: true, failed: false, running: false };
}

export function computePodActions(pod: Pod, status: RuntimePodStatus, liveness: ProbeResultLookup, startup: ProbeResultLookup, runtimeName = 'containerd'): PodActions {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const sb = podSandboxChanged(pod, status);
  const actions: PodActions = {
    killPod: sb.changed,
    createSandbox: sb.changed,
    sandboxId: sb.sandboxId,
    attempt: sb.attempt,
    ephemeralContainersToStart: [],
    initContainersToStart: [],
    containersToStart: [],
    containersToKill: [],
    initFailed: false,
  };
  const containers = pod.spec?.containers ?? [];

  if (sb.changed) {
    // Everything will be killed and recreated in a new sandbox.
    if (policy === 'Never' && sb.attempt !== 0 && status.containers.length) {
      actions.createSandbox = false;
      return actions;
    }
    const toStart = containers.filter((c) => !(policy === 'OnFailure' && containerSucceeded(c, status))).map((c) => c.name);
    if (!toStart.length && nextInitContainer(pod, status).done) {
      actions.createSandbox = false;
      return actions;
    }
    if (hasAnyRegularContainerCreated(pod, status)) {
      actions.containersToStart = toStart;
      return actions;
    }
    const firstInit = pod.spec?.initContainers?.[0];
    if (firstInit) actions.initContainersToStart = [firstInit.name];
    else actions.containersToStart = toStart;
    return actions;
  }

  // Ephemeral containers start even before initialization is done (one may debug an init container); never twice.
  for (const ec of pod.spec?.ephemeralContainers ?? []) if (!newest(status, ec.name)) actions.ephemeralContainersToStart.push(ec.name);

  // Init phase: one regular init container at a time, each to completion.
  const init = nextInitContainer(pod, status);
  if (!init.done) {
    if (init.failed && policy === 'Never') {
      actions.initFailed = true;
      actions.killPod = true;
      return actions;
    }
    if (init.next) actions.initContainersToStart = [init.next.name];
    // Sidecars already running stay; app containers wait for initialization.
    return actions;
  }

  let keep = 0;
  for (const c of containers) {
    const s = newest(status, c.name);
    if (!s || s.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, status)) actions.containersToStart.push(c.name);
      continue;
    }
    const id = `${runtimeName}://${s.id}`;
    let message = '';
    let gracePeriodOverride: number | undefined;
    if (s.hash && s.hash !== hashContainer(c)) message = `Container ${c.name} definition changed, will be restarted`;
    else if (c.livenessProbe && liveness(id) === 'Failure') {
      message = `Container ${c.name} failed liveness probe, will be restarted`;
      gracePeriodOverride = c.livenessProbe.terminationGracePeriodSeconds;
    } else if (c.startupProbe && startup(id) === 'Failure') {
      message = `Container ${c.name} failed startup probe, will be restarted`;
      gracePeriodOverride = c.startupProbe.terminationGracePeriodSeconds;
    }
    if (!message) {
      keep++;
      continue;
    }
    if (policy !== 'Never') actions.containersToStart.push(c.name);
    actions.containersToKill.push({ id: s.id, name: c.name, message, ...(gracePeriodOverride !== undefined ? { gracePeriodOverride } : {}) });
  }
  if (keep === 0 && !actions.containersToStart.length) {
    actions.killPod = true;
  }
  return actions;
}
