// The runtime's state machines, mirroring containerd's CRI plugin: sandboxes
// READY → NOTREADY → removed, containers CREATED → RUNNING → EXITED → removed
// (UNKNOWN when a process is lost). Stop/Remove are idempotent. The runtime
// never restarts a container: that is the kubelet's job.

import { randomBytes } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EventEmitter } from 'node:events';
import { status } from '@grpc/grpc-js';
import type { CriContainerConfig__Output, CriLinuxContainerResources__Output, CriPodSandboxConfig__Output } from '@kubelab/proto';
import { RuntimeError, alreadyExists, failedPrecondition, invalid, notFound } from './errors.js';
import { matchId, matchLabels } from './filters.js';
import { ImageStore, type StoredImage } from './images.js';
import { Ipam, parsePodCidr } from './ipam.js';
import { FALLBACK_POD_RANGE, localIpv4Addresses, podRangeRefusal } from './pod-range.js';
import { logFilesMade } from './logs.js';
import { copyMounts } from './mounts.js';
import type { NetworkMode } from './network.js';
import type { ExecOutcome, SimProcess } from './process.js';
import { StateFile } from './statefile.js';
import type { AttachRequest, ExecRequest } from './streaming/server.js';
import type { ExecSession } from './streaming/session.js';
import { LocalTasks, TaskStartError, type TaskExit, type ShimLauncher, type TaskEvents, type TaskSpec, type Tasks, type LocalTasksOptions } from './tasks.js';
import { nowNanos } from './time.js';
import { containerSecurity, validateSecurityContext } from './security/context.js';
import type { Identity } from './security/users.js';

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type ContainerEventType = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

export interface Sandbox {
  id: string;
  config: CriPodSandboxConfig__Output;
  runtimeHandler: string;
  state: SandboxState;
  createdAt: string;
  ip: string;
  /** containerPort → where it is served (loopback mode). */
  ports: Record<string, { hostIp: string; hostPort: number }>;
}

export interface Container {
  id: string;
  sandboxId: string;
  config: CriContainerConfig__Output;
  /** The image ID (sha256:...) the config's image resolved to; ContainerStatus looks its tags and digests up (convert.ts). */
  imageId: string;
  state: ContainerState;
  createdAt: string;
  startedAt: string;
  finishedAt: string;
  exitCode: number;
  reason: string;
  message: string;
  /** Host path of the CRI log file, '' when the kubelet gave none. */
  logPath: string;
  resources: CriLinuxContainerResources__Output | null;
  /** Set when the process was recreated after a runtime restart. */
  recovered?: boolean;
  /** The user the process runs as (ContainerStatus.user); absent in state written before it was kept: root. */
  identity?: Identity;
}

export interface RuntimeOptions {
  root: string;
  timeScale: number;
  networkMode: NetworkMode;
  pullBytesPerSecond: number;
  /** Pod CIDR until the kubelet sends one (upstream: none, NetworkReady=false); without it, sandboxes get addresses from FALLBACK_POD_RANGE. */
  podCidr?: string;
  /** The network namespace is the project's own (a compose node): any pod CIDR is taken (pod-range.ts). */
  podNetworkOwned?: boolean;
  onWarning?: (msg: string, fields?: Record<string, unknown>) => void;
  /** At a container's start: PID 1 when it is not its argv's script but a shell on the container's stdin (streaming/attach.ts). */
  mainProcess?: (spec: TaskSpec, proc: SimProcess) => ExecSession | undefined;
  /** Sandboxes' tasks run in shim processes that outlive this one (shim/); without it, in this process (they end with it). */
  shims?: ShimLauncher;
  /** Loopback mode, tasks in this process: where other pods' and Services' addresses lead (socket-lb.ts). */
  route?: LocalTasksOptions['route'];
}

interface PersistedState {
  version: 1;
  podCidr: string;
  images: { id: string; tags: string[] }[];
  sandboxes: Sandbox[];
  containers: Container[];
}

export const RUNTIME_NAME = 'containerd';
export const RUNTIME_VERSION = 'v1.7.24-kubelab';
export const RUNTIME_API_VERSION = 'v1';
/** An exit code for processes whose end was not observed, as containerd's unknownExitCode. */
export const UNKNOWN_EXIT_CODE = 255;

const newId = () => randomBytes(32).toString('hex');
const num = (v: string | number | undefined | null) => (v === undefined || v === null || v === '' ? 0 : Number(v));

export class Runtime {
  readonly images: ImageStore;
  readonly sandboxes = new Map<string, Sandbox>();
  readonly containers = new Map<string, Container>();
  readonly events = new EventEmitter();
  /** Each sandbox's tasks (its shim), once it has any. */
  private readonly tasks = new Map<string, Tasks>();
  private readonly tasksStarting = new Map<string, Promise<Tasks>>();
  /** Containers between StartContainer and their task's start. */
  private readonly starting = new Set<string>();
  /** An exit that came before its start was answered. */
  private readonly earlyExits = new Map<string, TaskExit>();
  private readonly stopping = new Map<string, Promise<void>>();
  private readonly exitWaiters = new Map<string, Set<() => void>>();
  private ipam: Ipam | undefined;
  /** Addresses for sandboxes created before any pod CIDR came (pod-range.ts). */
  private readonly fallbackIpam = new Ipam(parsePodCidr(FALLBACK_POD_RANGE)!);
  private podCidr = '';
  private readonly state: StateFile<PersistedState>;
  private readonly warn: (msg: string, fields?: Record<string, unknown>) => void;
  private closed = false;

  constructor(private readonly opts: RuntimeOptions) {
    this.images = new ImageStore({ pullBytesPerSecond: opts.pullBytesPerSecond });
    this.warn = opts.onWarning ?? (() => {});
    this.events.setMaxListeners(0);
    this.state = new StateFile(
      opts.root,
      () => this.snapshot(),
      20,
      (e) => this.warn(e.message),
    );
    if (opts.podCidr) this.setPodCidr(opts.podCidr);
  }

  // ---- runtime ---------------------------------------------------------

  setPodCidr(cidr: string): void {
    if (!cidr || cidr === this.podCidr) return;
    const parsed = parsePodCidr(cidr);
    if (!parsed) throw invalid('runtime_config.network_config.pod_cidr', `invalid CIDR address: ${cidr}`);
    const refusal = this.opts.podNetworkOwned ? undefined : podRangeRefusal(parsed, cidr, this.opts.networkMode, localIpv4Addresses());
    if (refusal) throw invalid('runtime_config.network_config.pod_cidr', refusal);
    const ipam = new Ipam(parsed);
    for (const sb of this.sandboxes.values()) if (sb.ip && sb.state === 'SANDBOX_READY') ipam.claim(sb.ip, sb.id);
    this.ipam = ipam;
    this.podCidr = cidr;
    this.state.touch();
  }

  private releaseIp(ip: string): void {
    this.ipam?.release(ip);
    this.fallbackIpam.release(ip);
  }

  networkReady(): boolean {
    return this.ipam !== undefined;
  }

  getPodCidr(): string {
    return this.podCidr;
  }

  // ---- sandboxes ---------------------------------------------------------

  getSandbox(id: string): Sandbox {
    const sb = this.sandboxes.get(id) ?? this.findByPrefix(this.sandboxes, id);
    if (!sb) throw notFound('sandbox', id);
    return sb;
  }

  private findByPrefix<T extends { id: string }>(map: Map<string, T>, prefix: string): T | undefined {
    if (!prefix || prefix.length < 4) return undefined;
    let found: T | undefined;
    for (const v of map.values()) {
      if (v.id.startsWith(prefix)) {
        if (found) return undefined;
        found = v;
      }
    }
    return found;
  }

  async runPodSandbox(config: CriPodSandboxConfig__Output | null, runtimeHandler: string): Promise<Sandbox> {
    if (!config) throw invalid('config', 'sandbox config must not be nil');
    const md = config.metadata;
    if (!md) throw invalid('config.metadata', 'sandbox config must include metadata');
    if (!md.name) throw invalid('config.metadata.name', 'must not be empty');
    if (!md.namespace) throw invalid('config.metadata.namespace', 'must not be empty');
    if (!md.uid) throw invalid('config.metadata.uid', 'must not be empty');
    if (runtimeHandler && runtimeHandler !== 'runc') throw invalid('runtime_handler', `no runtime for "${runtimeHandler}" is configured`);
    const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === 'NODE';
    for (const sb of this.sandboxes.values()) {
      const m = sb.config.metadata!;
      if (m.name === md.name && m.namespace === md.namespace && m.uid === md.uid && m.attempt === md.attempt) {
        throw alreadyExists(`failed to reserve sandbox name "${sandboxName(config)}": name "${sandboxName(config)}" is reserved for "${sb.id}"`);
      }
    }
    const id = newId();
    const ip = hostNetwork ? '' : (this.ipam ?? this.fallbackIpam).allocate(id);
    const sb: Sandbox = { id, config, runtimeHandler, state: 'SANDBOX_READY', createdAt: nowNanos().toString(), ip, ports: {} };
    this.sandboxes.set(id, sb);
    // The sandbox's shim starts with it, as upstream's does with the pause container.
    if (this.opts.shims) {
      try {
        await this.tasksOf(sb);
      } catch (err) {
        this.sandboxes.delete(id);
        if (ip) this.releaseIp(ip);
        throw new RuntimeError(status.UNKNOWN, `failed to start sandbox "${id}": failed to create containerd task: failed to start shim: ${(err as Error).message}`);
      }
    }
    this.state.touch();
    return sb;
  }

  /** Stops every container (KILL at once, as upstream), frees the IP; again and again if asked. */
  async stopPodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id) ?? this.findByPrefix(this.sandboxes, id);
    if (!sb) return;
    const stops = [...this.containers.values()].filter((c) => c.sandboxId === sb.id).map((c) => this.stopContainer(c.id, 0));
    await Promise.all(stops);
    if (sb.ip) this.releaseIp(sb.ip);
    const tasks = this.tasks.get(sb.id);
    if (tasks) {
      this.tasks.delete(sb.id);
      await tasks.shutdown().catch((err: Error) => this.warn('cannot shut the sandbox task down', { sandbox: sb.id, err: err.message }));
    }
    sb.ports = {};
    if (sb.state !== 'SANDBOX_NOTREADY') {
      sb.state = 'SANDBOX_NOTREADY';
      this.state.touch();
    }
  }

  async removePodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id) ?? this.findByPrefix(this.sandboxes, id);
    if (!sb) return;
    await this.stopPodSandbox(sb.id);
    for (const c of [...this.containers.values()]) if (c.sandboxId === sb.id) await this.removeContainer(c.id);
    this.sandboxes.delete(sb.id);
    this.state.touch();
  }

  listSandboxes(filter: { id?: string; state?: SandboxState; labelSelector?: Record<string, string> } | undefined): Sandbox[] {
    const out: Sandbox[] = [];
    for (const sb of this.sandboxes.values()) {
      if (filter) {
        if (!matchId(sb.id, filter.id)) continue;
        if (filter.state && sb.state !== filter.state) continue;
        if (!matchLabels(sb.config.labels, filter.labelSelector)) continue;
      }
      out.push(sb);
    }
    return out;
  }

  // ---- tasks -------------------------------------------------------------

  /** The sandbox's tasks: its shim (started now if need be) or, without shims, this process. */
  private tasksOf(sb: Sandbox): Promise<Tasks> {
    const have = this.tasks.get(sb.id);
    if (have) return Promise.resolve(have);
    let pending = this.tasksStarting.get(sb.id);
    if (!pending) {
      const events = this.taskEvents(sb.id);
      pending = this.opts.shims
        ? this.opts.shims.start(sb.id, sb.ip, events)
        : Promise.resolve(
            new LocalTasks(
              {
                podIp: sb.ip,
                networkMode: this.opts.networkMode,
                ...(this.opts.route ? { route: this.opts.route } : {}),
                timeScale: this.opts.timeScale,
                warn: this.warn,
                ...(this.opts.mainProcess ? { mainProcess: this.opts.mainProcess } : {}),
              },
              events,
            ),
          );
      pending = pending.then(
        (t) => {
          this.tasksStarting.delete(sb.id);
          this.tasks.set(sb.id, t);
          return t;
        },
        (err: unknown) => {
          this.tasksStarting.delete(sb.id);
          throw err;
        },
      );
      this.tasksStarting.set(sb.id, pending);
    }
    return pending;
  }

  /** The runtime's side of a sandbox's task events (upstream: TaskExit from the shim). */
  private taskEvents(sandboxId: string): TaskEvents {
    return {
      exit: (id, exit) => this.taskExited(id, exit),
      ports: (ports) => {
        const sb = this.sandboxes.get(sandboxId);
        if (!sb) return;
        sb.ports = sb.state === 'SANDBOX_READY' ? ports : {};
        this.state.touch();
      },
      lost: () => this.tasksLost(sandboxId),
    };
  }

  private taskExited(id: string, exit: TaskExit): void {
    if (this.closed) return;
    const c = this.containers.get(id);
    if (!c) return;
    if (this.starting.has(id)) {
      this.earlyExits.set(id, exit);
      return;
    }
    if (c.state !== 'CONTAINER_RUNNING') return;
    Object.assign(c, { state: 'CONTAINER_EXITED', finishedAt: exit.finishedAt, exitCode: exit.exitCode, reason: exit.reason, message: exit.message });
    this.state.touch();
    this.emit(c, 'CONTAINER_STOPPED_EVENT');
    this.wakeExitWaiters(id);
    void this.tasks
      .get(c.sandboxId)
      ?.delete(id)
      .catch(() => {});
  }

  /** A sandbox's shim went away: its running containers' ends were not observed (containerd: unknown exit). */
  private tasksLost(sandboxId: string): void {
    if (this.closed) return;
    this.tasks.delete(sandboxId);
    for (const c of this.containers.values()) {
      if (c.sandboxId !== sandboxId || c.state !== 'CONTAINER_RUNNING') continue;
      this.taskExited(c.id, { exitCode: UNKNOWN_EXIT_CODE, reason: 'Unknown', message: "the container's shim exited", finishedAt: nowNanos().toString() });
    }
    const sb = this.sandboxes.get(sandboxId);
    if (sb) sb.ports = {};
  }

  private wakeExitWaiters(id: string): void {
    const set = this.exitWaiters.get(id);
    this.exitWaiters.delete(id);
    for (const w of set ?? []) w();
  }

  /** Resolves once container `id` no longer runs. */
  private exitOf(c: Container): Promise<void> {
    if (c.state !== 'CONTAINER_RUNNING') return Promise.resolve();
    return new Promise((resolve) => {
      let set = this.exitWaiters.get(c.id);
      if (!set) this.exitWaiters.set(c.id, (set = new Set()));
      set.add(resolve);
    });
  }

  /** The running container's tasks, or the error of a call that needs it running. */
  private runningTasks(c: Container, failure: (state: ContainerState) => RuntimeError): Tasks {
    const tasks = this.tasks.get(c.sandboxId);
    if (c.state !== 'CONTAINER_RUNNING' || !tasks) throw failure(c.state === 'CONTAINER_RUNNING' ? 'CONTAINER_EXITED' : c.state);
    return tasks;
  }

  // ---- containers --------------------------------------------------------

  getContainer(id: string): Container {
    const c = this.containers.get(id) ?? this.findByPrefix(this.containers, id);
    if (!c) throw notFound('container', id);
    return c;
  }

  createContainer(sandboxId: string, config: CriContainerConfig__Output | null): Container {
    if (!sandboxId) throw invalid('pod_sandbox_id', 'must not be empty');
    if (!config) throw invalid('config', 'container config must not be nil');
    if (!config.metadata) throw invalid('config.metadata', 'container config must include metadata');
    if (!config.metadata.name) throw invalid('config.metadata.name', 'must not be empty');
    if (!config.image?.image) throw invalid('config.image.image', 'must not be empty');
    const limit = num(config.linux?.resources?.memoryLimitInBytes);
    if (limit < 0) throw invalid('config.linux.resources.memory_limit_in_bytes', `must not be negative, got ${limit}`);
    if (config.logPath && (config.logPath.startsWith('/') || config.logPath.split('/').includes('..'))) {
      throw invalid('config.log_path', `must be relative to the sandbox log directory without "..": "${config.logPath}"`);
    }
    const sb = this.getSandbox(sandboxId);
    if (sb.state !== 'SANDBOX_READY') throw failedPrecondition(`failed to create containerd container: sandbox container "${sb.id}" is not running`);
    validateSecurityContext(config);
    const img = this.images.resolve(config.image.image);
    if (!img) throw new RuntimeError(status.NOT_FOUND, `failed to create containerd container: failed to get image "${config.image.image}": not found`);
    // The user must exist in the image (containerd resolves it into the spec here).
    const { identity } = containerSecurity(config, sb.config, { user: imageUser(img), files: img.def.files });
    const name = containerName(config, sb.config);
    for (const c of this.containers.values()) {
      if (c.sandboxId === sb.id && c.config.metadata!.name === config.metadata.name && c.config.metadata!.attempt === config.metadata.attempt) {
        throw alreadyExists(`failed to reserve container name "${name}": name "${name}" is reserved for "${c.id}"`);
      }
    }
    const logDir = sb.config.logDirectory;
    const c: Container = {
      id: newId(),
      sandboxId: sb.id,
      config,
      imageId: img.id,
      state: 'CONTAINER_CREATED',
      createdAt: nowNanos().toString(),
      startedAt: '0',
      finishedAt: '0',
      exitCode: 0,
      reason: '',
      message: '',
      logPath: logDir && config.logPath ? join(logDir, config.logPath) : '',
      resources: config.linux?.resources ?? null,
      identity,
    };
    this.containers.set(c.id, c);
    this.state.touch();
    this.emit(c, 'CONTAINER_CREATED_EVENT');
    return c;
  }

  /** ReopenContainerLog: the running container's log file is closed and its path opened anew (after the kubelet rotated it). */
  async reopenContainerLog(id: string): Promise<void> {
    const c = this.getContainer(id);
    // containerd answers a plain error (gRPC Unknown), not a bad-argument one: the request itself is fine.
    const tasks = this.runningTasks(c, () => new RuntimeError(status.UNKNOWN, 'container is not running'));
    await tasks.reopenLog(c.id);
  }

  async startContainer(id: string): Promise<Container> {
    const c = this.getContainer(id);
    if (c.state !== 'CONTAINER_CREATED' || this.starting.has(c.id)) throw failedPrecondition(`failed to start container "${c.id}": container is in ${c.state} state`);
    const sb = this.getSandbox(c.sandboxId);
    if (sb.state !== 'SANDBOX_READY') throw failedPrecondition(`failed to start container "${c.id}": sandbox container "${sb.id}" is not running`);
    const spec = this.taskSpec(c, sb, this.imageFor(c));
    this.starting.add(c.id);
    let startedAt: string;
    try {
      // containerd opens the log file before it starts the task: it is there when StartContainer returns.
      if (c.logPath) await ensureLogFile(c.logPath, this.warn);
      const tasks = await this.tasksOf(sb);
      ({ startedAt } = await tasks.start(spec));
    } catch (err) {
      this.earlyExits.delete(c.id);
      if (!(err instanceof TaskStartError)) throw new RuntimeError(status.UNKNOWN, `failed to start containerd task "${c.id}": ${(err as Error).message}`);
      const now = nowNanos().toString();
      Object.assign(c, { state: 'CONTAINER_EXITED', startedAt: now, finishedAt: now, exitCode: 128, reason: 'StartError', message: err.message });
      this.state.touch();
      this.emit(c, 'CONTAINER_STOPPED_EVENT');
      throw new RuntimeError(status.UNKNOWN, `failed to start containerd task "${c.id}": ${err.message}`);
    } finally {
      this.starting.delete(c.id);
    }
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = startedAt;
    this.state.touch();
    this.emit(c, 'CONTAINER_STARTED_EVENT');
    const early = this.earlyExits.get(c.id);
    this.earlyExits.delete(c.id);
    if (early) this.taskExited(c.id, early);
    return c;
  }

  private imageFor(c: Container): StoredImage {
    const img = this.images.resolve(c.imageId);
    if (img) return img;
    const def = this.images.defForId(c.imageId);
    if (!def) throw new RuntimeError(status.NOT_FOUND, `failed to get image "${c.imageId}": not found`);
    return this.images.register(def, undefined);
  }

  /** What the task runs (containerd's OCI spec from the CRI config and the image). */
  private taskSpec(c: Container, sb: Sandbox, img: StoredImage): TaskSpec {
    const def = img.def;
    const hostname = sb.config.hostname || sb.config.metadata!.name;
    const env: Record<string, string> = { ...def.env, HOSTNAME: hostname, HOME: '/root' };
    for (const kv of c.config.envs) env[kv.key] = kv.value;
    const dns = sb.config.dnsConfig;
    const files: Record<string, string> = {
      ...def.files,
      '/etc/hostname': `${hostname}\n`,
      '/etc/hosts': `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${sb.ip ? `${sb.ip}\t${hostname}\n` : ''}`,
      '/etc/resolv.conf': dns
        ? `${dns.searches.length ? `search ${dns.searches.join(' ')}\n` : ''}${dns.servers.map((s) => `nameserver ${s}\n`).join('')}${dns.options.length ? `options ${dns.options.join(' ')}\n` : ''}`
        : '',
      ...copyMounts(c.config.mounts, this.warn),
    };
    const argv = [...(c.config.command.length ? c.config.command : def.entrypoint), ...(c.config.command.length || c.config.args.length ? c.config.args : def.cmd)];
    return {
      id: c.id,
      argv,
      env,
      cwd: c.config.workingDir || def.workingDir || '/',
      files,
      programs: def.programs,
      memoryLimitBytes: num(c.resources?.memoryLimitInBytes),
      baseMemoryBytes: def.baseMemoryBytes,
      logPath: c.logPath,
      stdio: { stdin: c.config.stdin, stdinOnce: c.config.stdinOnce, tty: c.config.tty },
      image: c.config.image?.image ?? '',
      mounts: c.config.mounts.map((m) => ({ hostPath: m.hostPath, containerPath: m.containerPath, readonly: m.readonly })),
      security: containerSecurity(c.config, sb.config, { user: imageUser(img), files: def.files }),
      ...(num(c.resources?.cpuQuota) > 0 ? { cpuMax: { quota: num(c.resources?.cpuQuota), period: num(c.resources?.cpuPeriod) || 100_000 } } : {}),
      hostNamespaces: {
        network: sb.config.linux?.securityContext?.namespaceOptions?.network === 'NODE',
        ipc: sb.config.linux?.securityContext?.namespaceOptions?.ipc === 'NODE',
      },
    };
  }

  /** TERM, then KILL after `timeoutSec` (container time, scaled like every process duration). */
  async stopContainer(id: string, timeoutSec: number): Promise<void> {
    const c = this.containers.get(id) ?? this.findByPrefix(this.containers, id);
    if (!c || c.state !== 'CONTAINER_RUNNING') return;
    const tasks = this.tasks.get(c.sandboxId);
    if (!tasks) return;
    const pending = this.stopping.get(c.id);
    if (pending && timeoutSec > 0) return pending;
    const exited = this.exitOf(c);
    const run = async () => {
      if (timeoutSec > 0) {
        await tasks.kill(c.id, 'SIGTERM');
        const graceMs = (timeoutSec * 1000) / this.opts.timeScale;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
        clearTimeout(timer);
      }
      if (c.state === 'CONTAINER_RUNNING') await tasks.kill(c.id, 'SIGKILL');
      await exited;
    };
    const stop = run().finally(() => {
      if (this.stopping.get(c.id) === stop) this.stopping.delete(c.id);
    });
    this.stopping.set(c.id, stop);
    return stop;
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id) ?? this.findByPrefix(this.containers, id);
    if (!c) return;
    await this.stopContainer(c.id, 0);
    this.containers.delete(c.id);
    this.state.touch();
    this.emit(c, 'CONTAINER_DELETED_EVENT');
  }

  listContainers(filter: { id?: string; state?: ContainerState; podSandboxId?: string; labelSelector?: Record<string, string> } | undefined): Container[] {
    const out: Container[] = [];
    for (const c of this.containers.values()) {
      if (filter) {
        if (!matchId(c.id, filter.id)) continue;
        if (filter.state && c.state !== filter.state) continue;
        if (!matchId(c.sandboxId, filter.podSandboxId)) continue;
        if (!matchLabels(c.config.labels, filter.labelSelector)) continue;
      }
      out.push(c);
    }
    return out;
  }

  async updateResources(id: string, linux: CriLinuxContainerResources__Output | null): Promise<void> {
    const c = this.getContainer(id);
    if (!linux) return;
    const limit = num(linux.memoryLimitInBytes);
    if (limit < 0) throw invalid('linux.memory_limit_in_bytes', `must not be negative, got ${limit}`);
    // A container that is not running only has its spec updated (containerd): the kubelet may race an exit.
    c.resources = linux;
    this.state.touch();
    if (c.state === 'CONTAINER_RUNNING') await this.tasks.get(c.sandboxId)?.update(c.id, limit);
  }

  async execSync(id: string, cmd: string[], timeoutSec: number): Promise<ExecOutcome> {
    if (!id) throw invalid('container_id', 'must not be empty');
    if (cmd.length === 0) throw invalid('cmd', 'must not be empty');
    if (timeoutSec < 0) throw invalid('timeout', `must not be negative, got ${timeoutSec}`);
    const c = this.getContainer(id);
    const failure = (state: ContainerState) => new RuntimeError(status.UNKNOWN, `failed to exec in container: container is in ${state} state`);
    const tasks = this.runningTasks(c, failure);
    let out: ExecOutcome;
    try {
      out = await tasks.execSync(c.id, cmd, timeoutSec * 1000);
    } catch {
      throw failure('CONTAINER_EXITED');
    }
    if (out.timedOut) throw new RuntimeError(status.DEADLINE_EXCEEDED, `failed to exec in container: timeout ${timeoutSec}s exceeded: context deadline exceeded`);
    return out;
  }

  /**
   * The pid verbose status reports for a sandbox's processes, as the node's
   * process table shows them: its shim's (they are simulated inside it), or
   * this process's when tasks run here.
   */
  taskPid(sandboxId: string): number {
    return this.opts.shims?.pid?.(sandboxId) ?? process.pid;
  }

  /** The running process of a container run in this process, for a CRI Exec or Attach stream (the streaming server runs commands in it or attaches to it). */
  execProcess(id: string): { proc: SimProcess; image: string; config: CriContainerConfig__Output; stdinShell?: ExecSession } {
    if (!id) throw invalid('container_id', 'must not be empty');
    const c = this.getContainer(id);
    const failure = (state: ContainerState) => new RuntimeError(status.UNKNOWN, `container is in ${state} state`);
    const tasks = this.runningTasks(c, failure);
    const p = tasks instanceof LocalTasks ? tasks.process(c.id) : undefined;
    if (!p) throw failure('CONTAINER_EXITED');
    return { proc: p.proc, image: c.config.image?.image ?? '', config: c.config, ...(p.stdinShell ? { stdinShell: p.stdinShell } : {}) };
  }

  /**
   * The one-time URL of a running container's Exec or Attach stream where its
   * shim serves it; undefined when it runs in this process (containerd's own
   * streaming server serves it). Throws when the container does not run.
   */
  async shimStreamUrl(p: { kind: 'exec'; req: ExecRequest } | { kind: 'attach'; req: AttachRequest }): Promise<string | undefined> {
    const c = this.getContainer(p.req.containerId);
    const tasks = this.runningTasks(c, (state) => new RuntimeError(status.UNKNOWN, `container is in ${state} state`));
    return tasks.streamUrl?.({ ...p, req: { ...p.req, containerId: c.id } } as typeof p);
  }

  /** Usage of a running container (undefined when it has no process). */
  async usage(c: Container): Promise<{ memoryBytes: number; cpuCoreNanos: bigint; nanoCores: number; fsBytes: number; limit: number } | undefined> {
    const tasks = this.tasks.get(c.sandboxId);
    if (c.state !== 'CONTAINER_RUNNING' || !tasks) return undefined;
    const u = await tasks.usage(c.id).catch(() => undefined);
    return u && { ...u, cpuCoreNanos: BigInt(u.cpuCoreNanos) };
  }

  // ---- events ------------------------------------------------------------

  private emit(c: Container, type: ContainerEventType): void {
    this.events.emit('container', { container: c, type, at: nowNanos().toString() });
  }

  // ---- persistence -------------------------------------------------------

  private snapshot(): PersistedState {
    return {
      version: 1,
      podCidr: this.podCidr,
      images: this.images.list().map((i) => ({ id: i.id, tags: i.repoTags })),
      sandboxes: [...this.sandboxes.values()],
      containers: [...this.containers.values()],
    };
  }

  /**
   * Loads the state file. With shims, containers that were running are
   * where they were: each sandbox's shim is found again (its task
   * directory) and asked for its tasks; what ended meanwhile gets its exit,
   * and a container whose shim is gone becomes EXITED with exit code 255
   * and reason Unknown, as containerd marks a lost task. Without shims the
   * processes lived in the old runtime: they start again from their
   * command, keeping ID, startedAt and log (ContainerStatus info says
   * `recovered`).
   */
  async recover(): Promise<{ sandboxes: number; containers: number; respawned: number; adopted: number }> {
    const st = this.state.read();
    if (!st || st.version !== 1) {
      this.opts.shims?.cleanup(new Set());
      return { sandboxes: 0, containers: 0, respawned: 0, adopted: 0 };
    }
    for (const i of st.images) {
      const def = this.images.defForId(i.id);
      if (!def) continue;
      for (const t of i.tags.length ? i.tags : [undefined]) this.images.register(def, t?.slice(t.lastIndexOf(':') + 1));
    }
    for (const sb of st.sandboxes) {
      this.sandboxes.set(sb.id, { ...sb, ports: {} });
      if (sb.ip && sb.state === 'SANDBOX_READY' && !this.ipam?.claim(sb.ip, sb.id)) this.fallbackIpam.claim(sb.ip, sb.id);
    }
    if (st.podCidr) this.setPodCidr(st.podCidr);
    for (const c of st.containers) this.containers.set(c.id, c);
    let respawned = 0;
    let adopted = 0;
    // Shims of sandboxes the state file never recorded (containerd died right after starting them): upstream deletes such leftovers.
    const ready = new Set([...this.sandboxes.values()].filter((sb) => sb.state === 'SANDBOX_READY').map((sb) => sb.id));
    for (const id of this.opts.shims?.cleanup(ready) ?? []) this.warn('cleaned up a shim of an unknown sandbox', { sandbox: id });
    const lost = (c: Container, why: string) =>
      Object.assign(c, { state: 'CONTAINER_EXITED', finishedAt: nowNanos().toString(), exitCode: UNKNOWN_EXIT_CODE, reason: 'Unknown', message: `process lost on runtime restart: ${why}` });
    for (const sb of this.sandboxes.values()) {
      const running = [...this.containers.values()].filter((c) => c.sandboxId === sb.id && c.state === 'CONTAINER_RUNNING');
      if (sb.state !== 'SANDBOX_READY') {
        for (const c of running) lost(c, 'sandbox is not ready');
        continue;
      }
      if (this.opts.shims) {
        const tasks = await this.opts.shims.connect(sb.id, this.taskEvents(sb.id)).catch((err: Error) => {
          this.warn('cannot reconnect to shim', { sandbox: sb.id, err: err.message });
          return undefined;
        });
        if (!tasks) {
          for (const c of running) lost(c, 'shim is gone');
          continue;
        }
        this.tasks.set(sb.id, tasks);
        const { tasks: known, ports } = await tasks.state();
        sb.ports = ports;
        const byId = new Map(known.map((t) => [t.id, t]));
        for (const c of running) {
          const t = byId.get(c.id);
          if (!t) lost(c, 'task not found in its shim');
          else if (t.exit) {
            Object.assign(c, { state: 'CONTAINER_EXITED', finishedAt: t.exit.finishedAt, exitCode: t.exit.exitCode, reason: t.exit.reason, message: t.exit.message });
            void tasks.delete(c.id).catch(() => {});
          } else adopted++;
        }
        continue;
      }
      for (const c of running) {
        try {
          const tasks = await this.tasksOf(sb);
          await tasks.start(this.taskSpec(c, sb, this.imageFor(c)));
          c.recovered = true;
          respawned++;
        } catch (err) {
          lost(c, (err as Error).message);
        }
      }
    }
    this.state.flush();
    return { sandboxes: this.sandboxes.size, containers: this.containers.size, respawned, adopted };
  }

  /** Persists and stops serving; tasks in this process end with the runtime, a shim's go on (their state stays on disk). */
  async close(): Promise<void> {
    this.state.flush();
    this.closed = true;
    for (const t of this.tasks.values()) await t.close().catch(() => {});
    this.tasks.clear();
    // Log files still being made (off the event loop) are there before the runtime says it stopped.
    await logFilesMade();
  }
}

/** The image config's User (the catalogue keeps a uid). */
function imageUser(img: StoredImage): string {
  return String(img.def.uid);
}

/** containerd's sandbox name: k8s_POD_<pod>_<namespace>_<uid>_<attempt>. */
export function sandboxName(config: CriPodSandboxConfig__Output): string {
  const m = config.metadata!;
  return `${m.name}_${m.namespace}_${m.uid}_${m.attempt}`;
}

/** containerd's container name: <container>_<pod>_<namespace>_<uid>_<attempt>. */
export function containerName(config: CriContainerConfig__Output, sandbox: CriPodSandboxConfig__Output): string {
  const m = sandbox.metadata!;
  return `${config.metadata!.name}_${m.name}_${m.namespace}_${m.uid}_${config.metadata!.attempt}`;
}

/** An empty log file at `path` (its directory made), or a warning: the task's writer reports its own failure too. */
async function ensureLogFile(path: string, warn: (msg: string, fields?: Record<string, unknown>) => void): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await appendFile(path, '');
  } catch (err) {
    warn('cannot create container log', { path, err: (err as Error).message });
  }
}
