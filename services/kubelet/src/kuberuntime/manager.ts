// The runtime manager (upstream kuberuntime_manager.go, _sandbox.go,
// _container.go): turns PodActions into CRI calls — sandbox, image pulls,
// init containers, containers, kills — with upstream events and the
// per-container reason a failure leaves behind for the pod status.

import type { Container, LifecycleHandler, Pod, Service } from '@kubelab/api';
import { formatDuration, kObj, type Logger } from '@kubelab/component-base';
import type { Backoff } from '../backoff.js';
import type { Clock } from '@kubelab/client';
import { Reason, containerRef, formatPod, podRef, type Recorder } from '../events.js';
import { ImageError, type ImageManager } from '../images/image-manager.js';
import type { SyncReason } from '../status/generate.js';
import type { ObjectSource } from '../volumemanager/sources.js';
import type { VolumeManager } from '../volumemanager/manager.js';
import { hashContainer, type PodActions } from './actions.js';
import { linuxContainerResources } from './resources.js';
import { linuxContainerSecurityContext, linuxPodSandboxConfig, verifyRunAsNonRoot, type ImageUser } from './security-context.js';
import { REASON_INVALID_ENV_NAMES, expandVars, makeEnvironmentVariables } from './env.js';
import {
  ANNOTATION_CONTAINER_HASH,
  ANNOTATION_CONTAINER_PORTS,
  ANNOTATION_POD_TERMINATION_GRACE_PERIOD,
  ANNOTATION_PRESTOP_HANDLER,
  ANNOTATION_RESTART_COUNT,
  ANNOTATION_TERMINATION_MESSAGE_PATH,
  LABEL_CONTAINER_NAME,
  LABEL_CONTAINER_TYPE,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  LABEL_POD_UID,
  CriClientError,
  isNotFound,
  type AuthConfig,
  type ContainerConfig,
  type PodSandboxConfig,
  type RuntimeService,
} from './cri.js';
import { podDNSRecorded, podHostnameAndDomain, type DNSSettings } from '../network/dns.js';
import { ensureHostsFile, mountsOwnHosts, type HostsFileOptions } from '../network/hosts.js';
import { RELIST_PERIOD_MS } from '../pleg/generic.js';
import { getPodStatus, toRuntimeContainerStatus, type RuntimePodStatus, type SandboxStatus } from './podstatus.js';

/** Upstream never gives a container less than this to stop. */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** Upstream kubelet's backOffPeriod: a pod whose sync failed is synced again this much later (upstream adds up to half of it as jitter). */
export const SYNC_ERROR_BACKOFF_MS = 10_000;

export interface RuntimeManagerOptions {
  rt: RuntimeService;
  images: ImageManager;
  recorder: Recorder;
  /** CrashLoopBackOff per container: 10 s doubling to 5 min. */
  crashBackoff: Backoff;
  /** How long after a failed sync the pod is synced again (default SYNC_ERROR_BACKOFF_MS; kubelet time divided by --time-scale). */
  syncErrorBackoffMs?: number;
  clock: Clock;
  /** `/var/log/pods` */
  podLogsDir: string;
  runtimeName: string;
  nodeName: string;
  nodeIPs: () => string[];
  /** Pull credentials from the pod's imagePullSecrets. */
  pullSecrets?: (pod: Pod, image: string) => Promise<AuthConfig[]>;
  /** ConfigMaps and Secrets for envFrom and configMapKeyRef/secretKeyRef. */
  objects?: ObjectSource;
  /** Node allocatable, for resourceFieldRef of containers without limits. */
  allocatable?: () => Record<string, string>;
  /** RelaxedEnvironmentVariableValidation (default true, as in 1.32). */
  relaxedEnvNames?: boolean;
  /** The Services the kubelet watches, for the service environment variables. */
  services?: () => readonly Service[];
  /** The pod's set-up volumes, for the containers' CRI mounts. */
  volumes?: VolumeManager;
  /** clusterDNS, clusterDomain and the node's resolv.conf: each pod's dns_config (absent: none sent). */
  dns?: () => DNSSettings;
  /** Where the kubelet-managed /etc/hosts is written (absent: the runtime's own). */
  hostsFile?: HostsFileOptions;
  /** Runs an httpGet hook; returns an error text or undefined. */
  httpHook?: (url: URL, timeoutMs: number) => Promise<string | undefined>;
  log?: Pick<Logger, 'v'>;
}

export interface SyncResult {
  /** Per container: why it is not running now (cleared on a successful start). */
  reasons: Map<string, SyncReason | null>;
  /** When a back-off ends and the pod should be synced again (ms since epoch). */
  retryAt?: number;
  error?: string;
  /** What this sync changed, so the caller can refresh just that. */
  changes: { sandbox?: SandboxStatus; started: string[]; killed: boolean };
  /** The pod's termination was requested mid-sync: the steps left were not taken. */
  cancelled?: boolean;
}

/** `/var/log/pods/<namespace>_<name>_<uid>` (upstream BuildPodLogsDirectory). */
export function podLogsDirectory(root: string, pod: Pod): string {
  return `${root}/${pod.metadata.namespace}_${pod.metadata.name}_${pod.metadata.uid}`;
}

/** The crash-loop back-off key (upstream getStableKey). */
export function backoffKey(pod: Pod, c: Container): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}_${pod.metadata.uid}_${c.name}_${hashContainer(c)}`;
}

/** Termination grace for a container of pod (upstream setTerminationGracePeriod). */
export function gracePeriodFor(pod: Pod, override?: number): number {
  let g = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (pod.metadata.deletionGracePeriodSeconds !== undefined) g = pod.metadata.deletionGracePeriodSeconds;
  else if (pod.spec?.terminationGracePeriodSeconds !== undefined) g = pod.spec.terminationGracePeriodSeconds;
  if (override !== undefined) g = override;
  return g;
}

export { expandVars };

/** The container type label: init, ephemeral (added through pods/ephemeralcontainers) or a regular container. */
function containerType(pod: Pod, name: string): string {
  if (pod.spec?.initContainers?.some((i) => i.name === name)) return 'init';
  if (pod.spec?.ephemeralContainers?.some((e) => e.name === name)) return 'ephemeral';
  return 'container';
}

/** startContainer's answer when the pod's termination was requested before the container was created. */
export const START_CANCELLED: SyncReason = Object.freeze({ reason: 'Cancelled', message: 'pod termination requested' });

/** Waits for p, or only until signal aborts; p keeps running (its failure after that is dropped). */
async function untilAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  p.catch(() => {});
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((r) => (onAbort = r));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export class RuntimeManager {
  constructor(private readonly o: RuntimeManagerOptions) {}

  private get syncErrorBackoffMs(): number {
    return this.o.syncErrorBackoffMs ?? SYNC_ERROR_BACKOFF_MS;
  }

  /**
   * The same manager (shared back-off state, recorder, options) calling
   * through `rt` and reading `objects` instead: a traced sync's view, whose
   * CRI and apiserver calls are children of its span (see Kubelet.syncScope).
   */
  withCalls(rt: RuntimeService, objects?: ObjectSource): RuntimeManager {
    return new RuntimeManager({ ...this.o, rt, images: this.o.images.withRuntime(rt), ...(objects ? { objects } : {}) });
  }

  sandboxConfig(pod: Pod, attempt: number): PodSandboxConfig {
    const portMappings = (pod.spec?.containers ?? []).flatMap((c) =>
      (c.ports ?? []).filter((p) => p.hostPort).map((p) => ({ protocol: p.protocol ?? 'TCP', containerPort: p.containerPort, hostPort: p.hostPort ?? 0, hostIp: p.hostIP ?? '' })),
    );
    const dns = this.o.dns?.();
    // A host-network pod's hostname is the node's: left to the runtime, as upstream.
    const { hostname } = podHostnameAndDomain(pod, dns?.clusterDomain ?? '');
    return {
      metadata: { name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', namespace: pod.metadata.namespace ?? 'default', attempt },
      hostname: pod.spec?.hostNetwork ? '' : hostname,
      ...(dns ? { dnsConfig: podDNSRecorded(pod, dns, this.o.recorder, this.o.nodeName) } : {}),
      logDirectory: podLogsDirectory(this.o.podLogsDir, pod),
      portMappings,
      labels: {
        ...(pod.metadata.labels ?? {}),
        [LABEL_POD_NAME]: pod.metadata.name ?? '',
        [LABEL_POD_NAMESPACE]: pod.metadata.namespace ?? '',
        [LABEL_POD_UID]: pod.metadata.uid ?? '',
      },
      annotations: { ...(pod.metadata.annotations ?? {}) },
      linux: linuxPodSandboxConfig(pod),
    };
  }

  /**
   * Executes the actions; returns per-container sync reasons and when to retry.
   * `terminating` (the pod worker's) aborts when the pod is to stop: from then
   * on nothing is created or started and a kill of this sync is not waited for
   * (upstream: the cancelled sync context fails the remaining CRI calls).
   */
  async syncPod(pod: Pod, status: RuntimePodStatus, actions: PodActions, terminating?: AbortSignal): Promise<SyncResult> {
    // A first start "kills" an empty pod (upstream sets KillPod with CreateSandbox): only a
    // pod the runtime already had anything of needs re-reading after this sync.
    const hadAnything = status.sandboxes.length > 0 || status.containers.length > 0;
    const result: SyncResult = { reasons: new Map(), changes: { started: [], killed: (actions.killPod && hadAnything) || actions.containersToKill.length > 0 } };
    const cancelled = () => (terminating?.aborted ? (result.cancelled = true) : false);
    if (actions.killPod) {
      if (actions.createSandbox && actions.attempt > 0 && status.sandboxes.length) {
        this.o.recorder.event(podRef(pod), 'Normal', Reason.SandboxChanged, 'Pod sandbox changed, it will be killed and re-created.');
      }
      await untilAborted(this.killPod(pod, status), terminating);
      if (!actions.createSandbox) return result;
    } else {
      for (const k of actions.containersToKill) {
        // A liveness kill may take the whole grace period: the terminating sync must not wait behind it.
        await untilAborted(this.killContainer(pod, k.id, k.name, k.message, k.gracePeriodOverride), terminating);
        if (cancelled()) return result;
      }
    }
    if (cancelled()) return result;

    let sandboxId = actions.sandboxId;
    const sandboxConfig = this.sandboxConfig(pod, actions.attempt);
    let podIPs: string[] = status.sandboxes[0]?.ip ? [status.sandboxes[0].ip, ...status.sandboxes[0].additionalIps] : [];
    if (actions.createSandbox) {
      try {
        sandboxId = await this.o.rt.runPodSandbox(sandboxConfig);
        const st = await this.o.rt.podSandboxStatus(sandboxId);
        podIPs = st.network?.ip ? [st.network.ip, ...st.network.additionalIps] : [];
        result.changes.sandbox = { id: sandboxId, ready: st.state === 'SANDBOX_READY', ip: podIPs[0] ?? '', additionalIps: podIPs.slice(1), createdAt: st.createdAt, attempt: actions.attempt };
      } catch (e) {
        const text = CriClientError.isInstance(e) ? e.grpcText : (e as Error).message;
        this.o.recorder.event(podRef(pod), 'Warning', Reason.FailedCreatePodSandBox, `Failed to create pod sandbox: ${text}`);
        result.error = `CreatePodSandboxError: ${text}`;
        result.changes.killed = true;
        result.retryAt = this.o.clock.now() + this.syncErrorBackoffMs;
        return result;
      }
    }

    // Ephemeral containers first: they may be there to debug an init container (upstream SyncPod step 5).
    for (const name of actions.ephemeralContainersToStart) {
      const c = pod.spec?.ephemeralContainers?.find((x) => x.name === name);
      if (!c) continue;
      if (cancelled()) return result;
      const err = await this.startContainer(pod, c, 0, sandboxId, sandboxConfig, podIPs, (id) => result.changes.started.push(id), terminating);
      if (err === START_CANCELLED) {
        result.cancelled = true;
        return result;
      }
      result.reasons.set(c.name, err ?? null);
    }
    for (const name of actions.initContainersToStart) {
      const c = pod.spec?.initContainers?.find((x) => x.name === name);
      if (!c) continue;
      if (cancelled()) return result;
      const ok = await this.startWithBackoff(pod, c, status, sandboxId, sandboxConfig, podIPs, result, terminating);
      if (!ok) return result;
    }
    for (const name of actions.containersToStart) {
      const c = pod.spec?.containers.find((x) => x.name === name);
      if (cancelled()) return result;
      if (c) await this.startWithBackoff(pod, c, status, sandboxId, sandboxConfig, podIPs, result, terminating);
    }
    return result;
  }

  /** Crash-loop back-off, then start (upstream doBackOff + startContainer). */
  private async startWithBackoff(
    pod: Pod,
    c: Container,
    status: RuntimePodStatus,
    sandboxId: string,
    sandboxConfig: PodSandboxConfig,
    podIPs: string[],
    result: SyncResult,
    terminating?: AbortSignal,
  ): Promise<boolean> {
    // The newest *exited* instance, even when a newer one is still running: a liveness kill
    // restarts within this sync, and its back-off counts from the previous instance's end.
    const last = status.containers.find((s) => s.name === c.name && s.state === 'exited');
    const prev = status.containers.find((s) => s.name === c.name);
    if (last) {
      const key = backoffKey(pod, c);
      const bo = this.o.crashBackoff;
      if (bo.isInBackOffSince(key, last.finishedAt)) {
        this.o.recorder.event(containerRef(pod, c), 'Warning', Reason.BackOff, `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`);
        result.reasons.set(c.name, {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatDuration(bo.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`,
        });
        const at = bo.retryAt(key, last.finishedAt);
        result.retryAt = Math.min(result.retryAt ?? at, at);
        return false;
      }
      bo.next(key, last.finishedAt);
    }
    const restartCount = prev ? prev.restartCount + 1 : 0;
    const err = await this.startContainer(pod, c, restartCount, sandboxId, sandboxConfig, podIPs, (id) => result.changes.started.push(id), terminating);
    if (err === START_CANCELLED) {
      result.cancelled = true;
      return false;
    }
    if (err) {
      result.reasons.set(c.name, err);
      // Upstream's next sync of a failed one: after backOffPeriod (pod workers' completeWork), an image in pull
      // back-off too (the image manager's back-off decides then whether to pull again); but a first pull that failed
      // in the sync that created the sandbox is followed one relist period on, as upstream's PLEG event for the new
      // sandbox syncs the pod again (ErrImagePull turns ImagePullBackOff then; the kubelet's own changes bring no
      // PLEG event here, so the sync is asked for).
      const at = this.o.clock.now() + (result.changes.sandbox && (err.reason === 'ErrImagePull' || err.reason === 'ImagePullBackOff') ? RELIST_PERIOD_MS : this.syncErrorBackoffMs);
      result.retryAt = Math.min(result.retryAt ?? at, at);
      return false;
    }
    result.reasons.set(c.name, null);
    return true;
  }

  /**
   * Pull, create, start, postStart; returns the reason on failure (upstream
   * startContainer), or START_CANCELLED when termination was requested before
   * the container was created (a pull can take long).
   */
  async startContainer(
    pod: Pod,
    c: Container,
    restartCount: number,
    sandboxId: string,
    sandboxConfig: PodSandboxConfig,
    podIPs: string[],
    onCreated: (id: string) => void = () => {},
    terminating?: AbortSignal,
  ): Promise<SyncReason | undefined> {
    const ref = containerRef(pod, c);
    let imageRef: string;
    let imageUser: ImageUser;
    try {
      const auth = this.o.pullSecrets ? await this.o.pullSecrets(pod, c.image ?? '') : [];
      ({ imageRef, user: imageUser } = await this.o.images.ensureImageExists(pod, c, auth, sandboxConfig));
    } catch (e) {
      const reason = e instanceof ImageError ? e.reason : 'ErrImagePull';
      this.o.recorder.event(ref, 'Warning', Reason.Failed, `Error: ${reason}`);
      return { reason, message: (e as Error).message };
    }
    let config: ContainerConfig;
    try {
      config = await this.containerConfig(pod, c, restartCount, imageRef, podIPs, imageUser);
    } catch (e) {
      const message = (e as Error).message;
      this.o.recorder.event(ref, 'Warning', Reason.Failed, `Error: ${message}`);
      return { reason: 'CreateContainerConfigError', message };
    }
    if (terminating?.aborted) return START_CANCELLED;
    let id: string;
    try {
      id = await this.o.rt.createContainer(sandboxId, config, sandboxConfig);
    } catch (e) {
      const message = CriClientError.isInstance(e) ? e.message : (e as Error).message;
      this.o.recorder.event(ref, 'Warning', Reason.Failed, `Error: ${message}`);
      return { reason: 'CreateContainerError', message };
    }
    onCreated(id);
    this.o.recorder.event(ref, 'Normal', Reason.Created, `Created container: ${c.name}`);
    try {
      await this.o.rt.startContainer(id);
    } catch (e) {
      const message = CriClientError.isInstance(e) ? e.message : (e as Error).message;
      this.o.recorder.event(ref, 'Warning', Reason.Failed, `Error: ${message}`);
      return { reason: 'RunContainerError', message };
    }
    this.o.recorder.event(ref, 'Normal', Reason.Started, `Started container ${c.name}`);
    if (c.lifecycle?.postStart) {
      const err = await this.runHook(pod, c, id, c.lifecycle.postStart, gracePeriodFor(pod), podIPs[0] ?? '');
      if (err !== undefined) {
        // The hook's output stays out of the event (it may hold secrets), as upstream.
        this.o.recorder.event(ref, 'Warning', Reason.FailedPostStartHook, 'PostStartHook failed');
        await this.killContainer(pod, id, c.name, 'FailedPostStartHook');
        return { reason: 'PostStartHookError', message: err };
      }
    }
    return undefined;
  }

  async containerConfig(pod: Pod, c: Container, restartCount: number, imageRef: string, podIPs: string[], imageUser: ImageUser = {}): Promise<ContainerConfig> {
    const nonRoot = verifyRunAsNonRoot(pod, c, imageUser);
    if (nonRoot) throw new Error(nonRoot);
    const { envs, warnings } = await makeEnvironmentVariables({
      pod,
      container: c,
      podIPs,
      hostIPs: this.o.nodeIPs(),
      allocatable: this.o.allocatable?.() ?? {},
      ...(this.o.objects ? { sources: this.o.objects } : {}),
      relaxedNames: this.o.relaxedEnvNames ?? true,
      ...(this.o.services ? { services: this.o.services() } : {}),
    });
    for (const w of warnings) this.o.recorder.event(podRef(pod), 'Warning', REASON_INVALID_ENV_NAMES, w);
    const envMap = new Map(envs.map((e) => [e.key, e.value]));
    const mounts = this.o.volumes?.mountsFor(pod, c, envMap) ?? [];
    if (this.o.hostsFile && !mountsOwnHosts(c)) {
      const { hostname, domain } = podHostnameAndDomain(pod, this.o.dns?.().clusterDomain ?? '');
      mounts.push(await ensureHostsFile(this.o.hostsFile, pod, podIPs, hostname, domain));
    }
    const annotations: Record<string, string> = {
      [ANNOTATION_CONTAINER_HASH]: hashContainer(c),
      [ANNOTATION_RESTART_COUNT]: String(restartCount),
      [ANNOTATION_TERMINATION_MESSAGE_PATH]: c.terminationMessagePath ?? '/dev/termination-log',
      [ANNOTATION_POD_TERMINATION_GRACE_PERIOD]: String(pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS),
    };
    if (c.lifecycle?.preStop) annotations[ANNOTATION_PRESTOP_HANDLER] = JSON.stringify(c.lifecycle.preStop);
    if (c.ports?.length) annotations[ANNOTATION_CONTAINER_PORTS] = JSON.stringify(c.ports);
    return {
      metadata: { name: c.name, attempt: restartCount },
      image: { image: imageRef || (c.image ?? ''), userSpecifiedImage: c.image ?? '' },
      command: (c.command ?? []).map((s) => expandVars(s, envMap)),
      args: (c.args ?? []).map((s) => expandVars(s, envMap)),
      workingDir: c.workingDir ?? '',
      envs,
      mounts,
      labels: {
        [LABEL_POD_NAME]: pod.metadata.name ?? '',
        [LABEL_POD_NAMESPACE]: pod.metadata.namespace ?? '',
        [LABEL_POD_UID]: pod.metadata.uid ?? '',
        [LABEL_CONTAINER_NAME]: c.name,
        [LABEL_CONTAINER_TYPE]: containerType(pod, c.name),
      },
      annotations,
      logPath: `${c.name}/${restartCount}.log`,
      stdin: !!c.stdin,
      stdinOnce: !!c.stdinOnce,
      tty: !!c.tty,
      linux: { resources: linuxContainerResources(c), securityContext: linuxContainerSecurityContext(pod, c, imageUser) },
    };
  }

  /** Runs a lifecycle handler; returns an error text or undefined. */
  async runHook(pod: Pod, c: Container, containerId: string, h: LifecycleHandler, timeoutSeconds: number, podIP: string): Promise<string | undefined> {
    try {
      if (h.exec) {
        const r = await this.o.rt.execSync(containerId, h.exec.command ?? [], timeoutSeconds);
        if (r.exitCode !== 0) return `command '${(h.exec.command ?? []).join(' ')}' exited with ${r.exitCode}: ${Buffer.concat([r.stdout, r.stderr]).toString()}`;
        return undefined;
      }
      if (h.httpGet) {
        const port = typeof h.httpGet.port === 'number' ? h.httpGet.port : (c.ports?.find((p) => p.name === h.httpGet!.port)?.containerPort ?? Number(h.httpGet.port));
        const host = h.httpGet.host || podIP;
        const url = new URL(`${(h.httpGet.scheme ?? 'HTTP').toLowerCase()}://${host}:${port}${h.httpGet.path ?? '/'}`);
        return this.o.httpHook ? await this.o.httpHook(url, timeoutSeconds * 1000) : 'httpGet hooks are not available';
      }
      if (h.sleep) {
        await new Promise((r) => setTimeout(r, h.sleep!.seconds * 1000));
        return undefined;
      }
      if (h.tcpSocket) return 'tcpSocket is not a valid lifecycle handler';
      return `missing lifecycle handler for ${pod.metadata.name}:${c.name}`;
    } catch (e) {
      return CriClientError.isInstance(e) ? e.grpcText : (e as Error).message;
    }
  }

  /** preStop hook within the grace period, then StopContainer (upstream killContainer). */
  async killContainer(pod: Pod, id: string, name: string, message = '', gracePeriodOverride?: number): Promise<void> {
    const spec = pod.spec?.containers.find((c) => c.name === name) ?? pod.spec?.initContainers?.find((c) => c.name === name) ?? { name };
    let grace = gracePeriodFor(pod, gracePeriodOverride);
    this.o.recorder.event(containerRef(pod, spec), 'Normal', Reason.Killing, message || `Stopping container ${name}`);
    this.o.log?.v(2).info('Killing container with a grace period', { pod: kObj(pod), podUID: pod.metadata.uid, containerName: name, containerID: `${this.o.runtimeName}://${id}`, gracePeriod: grace });
    if (spec.lifecycle?.preStop && grace > 0) {
      const start = this.o.clock.now();
      const podIP = pod.status?.podIP ?? '';
      const hook = this.runHook(pod, spec, id, spec.lifecycle.preStop, grace, podIP);
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), grace * 1000).unref());
      const outcome = await Promise.race([hook, timeout]);
      if (outcome !== 'timeout' && outcome !== undefined) {
        this.o.recorder.event(containerRef(pod, spec), 'Warning', Reason.FailedPreStopHook, 'PreStopHook failed');
      }
      grace -= Math.floor((this.o.clock.now() - start) / 1000);
    }
    grace = Math.max(grace, MINIMUM_GRACE_PERIOD_SECONDS);
    try {
      await this.o.rt.stopContainer(id, grace);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  /** Stops every running container (in parallel) and the pod's sandboxes (upstream KillPod). */
  async killPod(pod: Pod, status: RuntimePodStatus, gracePeriodOverride?: number): Promise<void> {
    const running = status.containers.filter((c) => c.state === 'running' || c.state === 'created' || c.state === 'unknown');
    await Promise.all(running.map((c) => this.killContainer(pod, c.id, c.name, '', gracePeriodOverride)));
    for (const sb of status.sandboxes) {
      if (!sb.ready) continue;
      try {
        await this.o.rt.stopPodSandbox(sb.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  /** Removes every container and sandbox of a pod (after it terminated). */
  async removePod(status: RuntimePodStatus): Promise<void> {
    for (const c of status.containers) {
      try {
        await this.o.rt.removeContainer(c.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    for (const sb of status.sandboxes) {
      try {
        await this.o.rt.stopPodSandbox(sb.id);
        await this.o.rt.removePodSandbox(sb.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  /** Keeps the newest exited instance per container, removes older ones (upstream container GC, maxPerPodContainer 1). */
  async gcContainers(status: RuntimePodStatus): Promise<void> {
    const seen = new Set<string>();
    for (const c of status.containers) {
      if (c.state !== 'exited') continue;
      if (!seen.has(c.name)) {
        seen.add(c.name);
        continue;
      }
      // Keep the newest exited one plus the running one; older ones go.
      try {
        await this.o.rt.removeContainer(c.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  /** The status after a sync that only added things: the old one plus the new sandbox and containers. */
  async refreshAfter(status: RuntimePodStatus, changes: SyncResult['changes']): Promise<RuntimePodStatus> {
    const added = await Promise.all(changes.started.map(async (id) => toRuntimeContainerStatus(await this.o.rt.containerStatus(id))));
    const containers = [...added, ...status.containers.filter((c) => !changes.started.includes(c.id))].sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
    const sandboxes = changes.sandbox ? [changes.sandbox, ...status.sandboxes.filter((s) => s.id !== changes.sandbox!.id)] : status.sandboxes;
    return { ...status, sandboxes, containers };
  }

  getPodStatus(uid: string, name?: string, namespace?: string): Promise<RuntimePodStatus> {
    return getPodStatus(this.o.rt, uid, name, namespace);
  }
}
