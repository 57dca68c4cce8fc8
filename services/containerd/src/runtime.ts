// The runtime's state machines, mirroring containerd's CRI plugin: sandboxes
// READY → NOTREADY → removed, containers CREATED → RUNNING → EXITED → removed
// (UNKNOWN when a process is lost). Stop/Remove are idempotent. The runtime
// never restarts a container: that is the kubelet's job.

import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EventEmitter } from 'node:events';
import { status } from '@grpc/grpc-js';
import type { CriContainerConfig__Output, CriLinuxContainerResources__Output, CriPodSandboxConfig__Output } from '@kubelab/proto';
import { RuntimeError, alreadyExists, failedPrecondition, invalid, notFound } from './errors.js';
import { matchId, matchLabels } from './filters.js';
import { ImageStore, type StoredImage } from './images.js';
import { Ipam, parsePodCidr } from './ipam.js';
import { CriLogWriter, logFilesMade } from './logs.js';
import { chunkText } from './output.js';
import { listenHttp, type Listener, type NetworkMode, type PortHandler } from './network.js';
import { SimProcess, StartError, type ExecOutcome } from './process.js';
import { StateFile } from './statefile.js';
import type { ExecSession } from './streaming/session.js';
import { nowNanos } from './time.js';

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
}

interface Live {
  proc?: SimProcess;
  log?: CriLogWriter;
  stopping?: Promise<void>;
  /** PID 1 when it is a shell on the container's stdin: attached clients type into it (streaming/attach.ts). */
  stdinShell?: ExecSession;
}

export interface RuntimeOptions {
  root: string;
  timeScale: number;
  networkMode: NetworkMode;
  pullBytesPerSecond: number;
  /** Pod CIDR until the kubelet sends one (upstream: none, NetworkReady=false). */
  podCidr?: string;
  onWarning?: (msg: string, fields?: Record<string, unknown>) => void;
  /** At a container's start: PID 1 when it is not its argv's script but a shell on the container's stdin (streaming/attach.ts). */
  mainProcess?: (c: Container, proc: SimProcess) => ExecSession | undefined;
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
  private readonly live = new Map<string, Live>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private ipam: Ipam | undefined;
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
    const ipam = new Ipam(parsed);
    for (const sb of this.sandboxes.values()) if (sb.ip && sb.state === 'SANDBOX_READY') ipam.claim(sb.ip, sb.id);
    this.ipam = ipam;
    this.podCidr = cidr;
    this.state.touch();
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

  runPodSandbox(config: CriPodSandboxConfig__Output | null, runtimeHandler: string): Sandbox {
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
    if (!hostNetwork && !this.ipam) {
      throw new RuntimeError(status.UNKNOWN, `failed to setup network for sandbox: plugin type="bridge" failed (add): no pod CIDR configured: the kubelet has not sent UpdateRuntimeConfig`);
    }
    const id = newId();
    const ip = hostNetwork ? '' : this.ipam!.allocate(id);
    const sb: Sandbox = { id, config, runtimeHandler, state: 'SANDBOX_READY', createdAt: nowNanos().toString(), ip, ports: {} };
    this.sandboxes.set(id, sb);
    this.state.touch();
    return sb;
  }

  /** Stops every container (KILL at once, as upstream), frees the IP; again and again if asked. */
  async stopPodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id) ?? this.findByPrefix(this.sandboxes, id);
    if (!sb) return;
    const stops = [...this.containers.values()].filter((c) => c.sandboxId === sb.id).map((c) => this.stopContainer(c.id, 0));
    await Promise.all(stops);
    if (sb.ip && this.ipam) this.ipam.release(sb.ip);
    for (const l of this.listeners.get(sb.id) ?? []) await l.close();
    this.listeners.delete(sb.id);
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

  private async listen(sb: Sandbox, port: number, handler: PortHandler): Promise<Listener> {
    if (sb.state !== 'SANDBOX_READY') throw new Error('sandbox network is torn down');
    if (sb.ports[String(port)]) throw new Error('98: Address already in use');
    const l = await listenHttp(this.opts.networkMode, sb.ip || '127.0.0.1', port, handler);
    sb.ports[String(port)] = { hostIp: l.hostIp, hostPort: l.hostPort };
    let set = this.listeners.get(sb.id);
    if (!set) this.listeners.set(sb.id, (set = new Set()));
    set.add(l);
    this.state.touch();
    return {
      ...l,
      close: async () => {
        set!.delete(l);
        if (sb.ports[String(port)]?.hostPort === l.hostPort) delete sb.ports[String(port)];
        await l.close();
      },
    };
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
    const img = this.images.resolve(config.image.image);
    if (!img) throw new RuntimeError(status.NOT_FOUND, `failed to create containerd container: failed to get image "${config.image.image}": not found`);
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
    };
    this.containers.set(c.id, c);
    this.state.touch();
    this.emit(c, 'CONTAINER_CREATED_EVENT');
    return c;
  }

  /** ReopenContainerLog: the running container's log file is closed and its path opened anew (after the kubelet rotated it). */
  reopenContainerLog(id: string): void {
    const c = this.getContainer(id);
    // containerd answers a plain error (gRPC Unknown), not a bad-argument one: the request itself is fine.
    if (c.state !== 'CONTAINER_RUNNING') throw new RuntimeError(status.UNKNOWN, 'container is not running');
    this.live.get(id)?.log?.reopen();
  }

  startContainer(id: string): Container {
    const c = this.getContainer(id);
    if (c.state !== 'CONTAINER_CREATED') throw failedPrecondition(`failed to start container "${c.id}": container is in ${c.state} state`);
    const sb = this.getSandbox(c.sandboxId);
    if (sb.state !== 'SANDBOX_READY') throw failedPrecondition(`failed to start container "${c.id}": sandbox container "${sb.id}" is not running`);
    const img = this.imageFor(c);
    const log = new CriLogWriter(c.logPath || undefined, (e) => this.warn('cannot write container log', { container: c.id, err: e.message }));
    const proc = this.spawn(c, sb, img, log);
    let stdinShell: ExecSession | undefined;
    try {
      stdinShell = this.startMain(c, proc);
    } catch (err) {
      if (!(err instanceof StartError)) throw err;
      const now = nowNanos().toString();
      Object.assign(c, { state: 'CONTAINER_EXITED', startedAt: now, finishedAt: now, exitCode: 128, reason: 'StartError', message: err.message });
      log.close();
      this.state.touch();
      this.emit(c, 'CONTAINER_STOPPED_EVENT');
      throw new RuntimeError(status.UNKNOWN, `failed to start containerd task "${c.id}": ${err.message}`);
    }
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = proc.startedAt!.toString();
    this.live.set(c.id, { proc, log, stdinShell });
    this.watchExit(c, proc, log);
    this.watchMounts(c, proc);
    this.state.touch();
    this.emit(c, 'CONTAINER_STARTED_EVENT');
    return c;
  }

  /** Starts PID 1: its argv's script, or the shell on stdin the mainProcess hook gives (returned). */
  private startMain(c: Container, proc: SimProcess): ExecSession | undefined {
    const shell = this.opts.mainProcess?.(c, proc);
    if (shell) proc.startWith(() => shell.run());
    else proc.start();
    return shell;
  }

  private imageFor(c: Container): StoredImage {
    const img = this.images.resolve(c.imageId);
    if (img) return img;
    const def = this.images.defForId(c.imageId);
    if (!def) throw new RuntimeError(status.NOT_FOUND, `failed to get image "${c.imageId}": not found`);
    return this.images.register(def, undefined);
  }

  private spawn(c: Container, sb: Sandbox, img: StoredImage, log: CriLogWriter): SimProcess {
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
      ...hostMounts(c.config, this.warn),
    };
    const cwd = c.config.workingDir || def.workingDir || '/';
    const argv = [...(c.config.command.length ? c.config.command : def.entrypoint), ...(c.config.command.length || c.config.args.length ? c.config.args : def.cmd)];
    return new SimProcess({
      argv,
      env,
      cwd,
      files,
      programs: def.programs,
      timeScale: this.opts.timeScale,
      memoryLimitBytes: num(c.resources?.memoryLimitInBytes),
      baseMemoryBytes: def.baseMemoryBytes,
      // The CRI log is lines of text: bytes a command passed through are read as UTF-8 there.
      output: (stream, data) => log.write(stream, chunkText(data)),
      listen: (port, handler) => this.listen(sb, port, handler),
    });
  }

  private watchExit(c: Container, proc: SimProcess, log: CriLogWriter): void {
    void proc.exited.then((exit) => {
      if (this.closed) return;
      log.close();
      Object.assign(c, {
        state: 'CONTAINER_EXITED',
        finishedAt: exit.finishedAt.toString(),
        exitCode: exit.exitCode,
        reason: exit.reason,
        message: exit.message,
      });
      this.live.delete(c.id);
      this.state.touch();
      this.emit(c, 'CONTAINER_STOPPED_EVENT');
    });
  }

  /**
   * Keeps a running container's copies of kubelet-projected volumes in step
   * with the host, as a bind mount would: configMap, secret, downwardAPI and
   * projected volumes are directories whose `..data` link the kubelet swaps
   * on update (upstream AtomicWriter); on a swap the files are copied again.
   * Other mounts stay the snapshot taken at start (subPath mounts of a
   * ConfigMap never update upstream either).
   */
  private watchMounts(c: Container, proc: SimProcess): void {
    const watched = c.config.mounts
      .filter((m) => m.hostPath && m.containerPath && existsSync(join(m.hostPath, '..data')))
      .map((m) => {
        const mount = { hostPath: m.hostPath, containerPath: m.containerPath.replace(/\/+$/, '') };
        return { mount, version: dataVersion(m.hostPath), files: new Set(Object.keys(copyMounts([mount], this.warn))) };
      });
    if (!watched.length) return;
    let busy = false;
    const refresh = async () => {
      if (busy || proc.exit) return;
      busy = true;
      try {
        for (const w of watched) {
          const version = dataVersion(w.mount.hostPath);
          if (version === w.version) continue;
          w.version = version;
          const next = copyMounts([w.mount], this.warn);
          for (const path of w.files) if (!(path in next)) await proc.fs.rm(path, { force: true }).catch(() => {});
          for (const [path, content] of Object.entries(next)) {
            await proc.fs.mkdir(dirname(path), { recursive: true });
            await proc.fs.writeFile(path, content);
          }
          w.files = new Set(Object.keys(next));
        }
      } catch (err) {
        this.warn('cannot refresh mount', { container: c.id, err: (err as Error).message });
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void refresh(), MOUNT_REFRESH_MS);
    timer.unref();
    void proc.exited.then(() => clearInterval(timer));
  }

  /** TERM, then KILL after `timeoutSec` (container time, scaled like every process duration). */
  async stopContainer(id: string, timeoutSec: number): Promise<void> {
    const c = this.containers.get(id) ?? this.findByPrefix(this.containers, id);
    if (!c) return;
    const live = this.live.get(c.id);
    const proc = live?.proc;
    if (!proc || proc.exit) return;
    if (live.stopping && timeoutSec > 0) return live.stopping;
    const run = async () => {
      if (timeoutSec > 0) {
        proc.term();
        const graceMs = (timeoutSec * 1000) / this.opts.timeScale;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([proc.exited, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
        clearTimeout(timer);
      }
      if (!proc.exit) proc.kill();
      await proc.exited;
      // Let the exit bookkeeping (watchExit) run before answering.
      await new Promise<void>((r) => setImmediate(r));
    };
    live.stopping = run();
    return live.stopping;
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id) ?? this.findByPrefix(this.containers, id);
    if (!c) return;
    await this.stopContainer(c.id, 0);
    this.containers.delete(c.id);
    this.live.delete(c.id);
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

  updateResources(id: string, linux: CriLinuxContainerResources__Output | null): void {
    const c = this.getContainer(id);
    if (!linux) return;
    const limit = num(linux.memoryLimitInBytes);
    if (limit < 0) throw invalid('linux.memory_limit_in_bytes', `must not be negative, got ${limit}`);
    // A container that is not running only has its spec updated (containerd): the kubelet may race an exit.
    c.resources = linux;
    const proc = this.live.get(c.id)?.proc;
    if (proc) {
      proc.memoryLimitBytes = limit;
      if (limit > 0 && proc.memoryBytes() >= limit) proc.oomKill();
    }
    this.state.touch();
  }

  async execSync(id: string, cmd: string[], timeoutSec: number): Promise<ExecOutcome> {
    if (!id) throw invalid('container_id', 'must not be empty');
    if (cmd.length === 0) throw invalid('cmd', 'must not be empty');
    if (timeoutSec < 0) throw invalid('timeout', `must not be negative, got ${timeoutSec}`);
    const c = this.getContainer(id);
    const proc = this.live.get(c.id)?.proc;
    if (c.state !== 'CONTAINER_RUNNING' || !proc || proc.exit) {
      throw new RuntimeError(status.UNKNOWN, `failed to exec in container: container is in ${c.state === 'CONTAINER_RUNNING' ? 'CONTAINER_EXITED' : c.state} state`);
    }
    const out = await proc.execSync(cmd, timeoutSec * 1000);
    if (out.timedOut) throw new RuntimeError(status.DEADLINE_EXCEEDED, `failed to exec in container: timeout ${timeoutSec}s exceeded: context deadline exceeded`);
    return out;
  }

  /** The running process of a container, for a CRI Exec or Attach stream (the streaming server runs commands in it or attaches to it). */
  execProcess(id: string): { proc: SimProcess; image: string; config: CriContainerConfig__Output; stdinShell?: ExecSession } {
    if (!id) throw invalid('container_id', 'must not be empty');
    const c = this.getContainer(id);
    const live = this.live.get(c.id);
    const proc = live?.proc;
    if (c.state !== 'CONTAINER_RUNNING' || !proc || proc.exit) {
      throw new RuntimeError(status.UNKNOWN, `container is in ${c.state === 'CONTAINER_RUNNING' ? 'CONTAINER_EXITED' : c.state} state`);
    }
    return { proc, image: c.config.image?.image ?? '', config: c.config, stdinShell: live.stdinShell };
  }

  /** Usage of a running container (undefined when it has no process). */
  usage(c: Container): { memoryBytes: number; cpuCoreNanos: bigint; nanoCores: number; fsBytes: number; limit: number } | undefined {
    const proc = this.live.get(c.id)?.proc;
    if (!proc || !proc.startedAt) return undefined;
    const elapsed = nowNanos() - proc.startedAt;
    const cores = proc.cpuCores;
    // What a program declares it burns, plus the time the container's shells actually held the thread (a busy loop: about a core).
    return {
      memoryBytes: proc.memoryBytes(),
      cpuCoreNanos: (elapsed * BigInt(Math.round(cores * 1e6))) / 1_000_000n + BigInt(Math.round(proc.cpu.ranMs * 1e6)),
      nanoCores: Math.round((cores + proc.cpu.cores()) * 1e9),
      fsBytes: proc.fs.writtenBytes,
      limit: proc.memoryLimitBytes,
    };
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
   * Loads the state file. Containers that were running come back running:
   * their simulated process starts again from its command (containerd's
   * shims would have kept the real ones alive; ours lived in the old
   * process), keeping ID, startedAt and log; ContainerStatus info says
   * `recovered`. A container that cannot be respawned becomes EXITED with
   * exit code 255 and reason Unknown, as containerd marks a lost task.
   */
  async recover(): Promise<{ sandboxes: number; containers: number; respawned: number }> {
    const st = this.state.read();
    if (!st || st.version !== 1) return { sandboxes: 0, containers: 0, respawned: 0 };
    for (const i of st.images) {
      const def = this.images.defForId(i.id);
      if (!def) continue;
      for (const t of i.tags.length ? i.tags : [undefined]) this.images.register(def, t?.slice(t.lastIndexOf(':') + 1));
    }
    for (const sb of st.sandboxes) {
      this.sandboxes.set(sb.id, { ...sb, ports: {} });
      if (sb.ip && sb.state === 'SANDBOX_READY') this.ipam?.claim(sb.ip, sb.id);
    }
    if (st.podCidr) this.setPodCidr(st.podCidr);
    let respawned = 0;
    for (const c of st.containers) {
      this.containers.set(c.id, c);
      if (c.state !== 'CONTAINER_RUNNING') continue;
      const sb = this.sandboxes.get(c.sandboxId);
      try {
        if (!sb || sb.state !== 'SANDBOX_READY') throw new Error('sandbox is not ready');
        const log = new CriLogWriter(c.logPath || undefined, (e) => this.warn('cannot write container log', { container: c.id, err: e.message }));
        const proc = this.spawn(c, sb, this.imageFor(c), log);
        const stdinShell = this.startMain(c, proc);
        c.recovered = true;
        this.live.set(c.id, { proc, log, stdinShell });
        this.watchExit(c, proc, log);
        this.watchMounts(c, proc);
        respawned++;
      } catch (err) {
        Object.assign(c, {
          state: 'CONTAINER_EXITED',
          finishedAt: nowNanos().toString(),
          exitCode: UNKNOWN_EXIT_CODE,
          reason: 'Unknown',
          message: `process lost on runtime restart: ${(err as Error).message}`,
        });
      }
    }
    this.state.flush();
    return { sandboxes: this.sandboxes.size, containers: this.containers.size, respawned };
  }

  /** Persists and stops serving; processes end with the runtime (their state stays on disk). */
  async close(): Promise<void> {
    this.state.flush();
    this.closed = true;
    for (const live of this.live.values()) live.proc?.kill();
    for (const set of this.listeners.values()) for (const l of set) await l.close();
    this.listeners.clear();
    // Log files still being made (off the event loop) are there before the runtime says it stopped.
    await logFilesMade();
  }
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

const MOUNT_FILE_LIMIT = 256;
const MOUNT_BYTES_LIMIT = 4 * 1024 * 1024;

/** How often a running container's projected volumes are compared with the host (see watchMounts). */
const MOUNT_REFRESH_MS = 1000;

/** The target of a projected volume's `..data` link: it changes on every kubelet update. */
function dataVersion(hostPath: string): string {
  try {
    return readlinkSync(join(hostPath, '..data'));
  } catch {
    return '';
  }
}

/** Host-path mounts copied into the container filesystem (a snapshot at start: ConfigMaps, Secrets, /etc/hosts). */
function hostMounts(config: CriContainerConfig__Output, warn: (m: string, f?: Record<string, unknown>) => void): Record<string, string> {
  return copyMounts(config.mounts, warn);
}

function copyMounts(mounts: { hostPath: string; containerPath: string }[], warn: (m: string, f?: Record<string, unknown>) => void): Record<string, string> {
  const files: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  const copy = (host: string, inner: string) => {
    if (count >= MOUNT_FILE_LIMIT || bytes >= MOUNT_BYTES_LIMIT) return;
    const st = statSync(host);
    if (st.isDirectory()) {
      for (const name of readdirSync(host)) if (!name.startsWith('..')) copy(join(host, name), `${inner}/${name}`);
    } else if (st.isFile() && st.size <= MOUNT_BYTES_LIMIT - bytes) {
      files[inner] = readFileSync(host, 'utf8');
      count++;
      bytes += st.size;
    }
  };
  for (const m of mounts) {
    if (!m.hostPath || !m.containerPath) continue;
    try {
      if (existsSync(m.hostPath)) copy(m.hostPath, m.containerPath.replace(/\/+$/, ''));
    } catch (err) {
      warn('cannot copy mount', { hostPath: m.hostPath, err: (err as Error).message });
    }
  }
  return files;
}
