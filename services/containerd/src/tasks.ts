// A pod sandbox's running containers (containerd's tasks): their simulated
// processes, CRI logs, listening ports and mount refreshes. The runtime's
// metadata (states, restart bookkeeping, events) lives in runtime.ts, which
// drives a sandbox's tasks through the Tasks interface: in this process
// (LocalTasks) or in the sandbox's shim process (shim/, upstream's
// containerd-shim-runc-v2 and its ttrpc Task service), so that containers
// outlive a containerd restart.

import { CriLogWriter } from './logs.js';
import { copyMounts, dataVersion, followDataLink, isProjected, type Mount } from './mounts.js';
import { dialTcp, isUdpHandler, listenPort, type Listener, type NetworkMode, type PortHandler } from './network.js';
import { cfsCores } from './cfs.js';
import { resolveHost, udpTransport } from './resolver.js';
import type { Decision, L4 } from './socket-lb.js';
import { WriteThrough } from './write-through.js';
import { chunkText } from './output.js';
import { SimProcess, StartError, type ExecOutcome, type PidNamespaceView } from './process.js';
import type { ProcEntry } from './procfs.js';
import type { ContainerSecurity } from './security/context.js';
import type { StdioConfig } from './streaming/attach.js';
import type { AttachRequest, ExecRequest } from './streaming/server.js';
import type { ExecSession } from './streaming/session.js';

/** Everything a task needs to start (containerd's Create: the OCI spec, here the simulated process's). */
export interface TaskSpec {
  id: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Image rootfs, runtime files and copies of the host mounts. */
  files: Record<string, string>;
  programs: string[];
  memoryLimitBytes: number;
  baseMemoryBytes: number;
  /** Host path of the CRI log, '' for none. */
  logPath: string;
  stdio: StdioConfig;
  /** The image reference (the exec prompt depends on it). */
  image: string;
  /** Mounts kept in step with the host while the task runs (projected volumes). */
  mounts: Mount[];
  /** The cgroup's cpu.max (CRI cpu_quota/cpu_period, µs); absent: no limit. */
  cpuMax?: { quota: number; period: number };
  /** The security context (security/context.ts); absent: root with containerd's defaults. */
  security?: ContainerSecurity;
  /** The node's namespaces the sandbox shares (NamespaceOption NODE). */
  hostNamespaces?: { network?: boolean; ipc?: boolean };
}

export interface TaskExit {
  exitCode: number;
  reason: string;
  message: string;
  /** Nanoseconds since the epoch, as a decimal string. */
  finishedAt: string;
}

/** A task as its owner reports it (containerd's State): running until `exit` is set. */
export interface TaskStatus {
  id: string;
  startedAt: string;
  exit?: TaskExit;
}

export interface TaskUsage {
  memoryBytes: number;
  /** Decimal string (a bigint on the wire). */
  cpuCoreNanos: string;
  nanoCores: number;
  fsBytes: number;
  limit: number;
}

/** containerPort → where it is really served. */
export type Ports = Record<string, { hostIp: string; hostPort: number }>;

/** What a sandbox's tasks tell the runtime (upstream: the shim's TaskExit events). */
export interface TaskEvents {
  exit(id: string, exit: TaskExit): void;
  ports(ports: Ports): void;
  /** The tasks' owner went away (a shim that died): what ran there ended unobserved. */
  lost(): void;
}

/** A start that failed as runc's create fails (argv[0] not found): the container ends with StartError. */
export class TaskStartError extends Error {
  override name = 'TaskStartError';
}

export interface Tasks {
  start(spec: TaskSpec): Promise<{ startedAt: string }>;
  kill(id: string, signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  execSync(id: string, cmd: string[], timeoutMs: number): Promise<ExecOutcome>;
  usage(id: string): Promise<TaskUsage | undefined>;
  update(id: string, memoryLimitBytes: number): Promise<void>;
  reopenLog(id: string): Promise<void>;
  /** Every task still known (running, or exited and not yet deleted) and the ports served. */
  state(): Promise<{ tasks: TaskStatus[]; ports: Ports }>;
  /** Forgets an exited task. */
  delete(id: string): Promise<void>;
  /** The sandbox is stopped: its ports close; a shim exits once nothing runs. */
  shutdown(): Promise<void>;
  /** containerd stops: in-process tasks end with it; a shim's go on. */
  close(): Promise<void>;
  /** A one-time Exec or Attach URL where the tasks' owner serves the stream (a shim; in-process tasks use containerd's server). */
  streamUrl?(p: { kind: 'exec'; req: ExecRequest } | { kind: 'attach'; req: AttachRequest }): Promise<string>;
}

export interface LocalTasksOptions {
  /** The sandbox's IP ('' on the host network: loopback). */
  podIp: string;
  networkMode: NetworkMode;
  /** Loopback mode: where another pod's or a Service's address leads (socket-lb.ts); absent, the pod reaches only itself. */
  /** `src` is the dialling pod's IP (NetworkPolicy's source). */
  route?: (ip: string, port: number, proto: L4, src?: string) => Decision;
  timeScale: number;
  warn: (msg: string, fields?: Record<string, unknown>) => void;
  /** At a task's start: PID 1 as a shell on the container's stdin, when it is one (streaming/attach.ts). */
  mainProcess?: (spec: TaskSpec, proc: SimProcess) => ExecSession | undefined;
  /** The pid the node's process table shows the sandbox's shim with (default: this process's). */
  shimPid?: number;
  /** A task's process ended by the cgroup OOM killer: what the kernel then logs (node-faults.ts oomKernelLines). */
  oomKilled?: (victim: OomVictim) => void;
}

/** The process the memory cgroup's OOM killer ended, with its memory at that moment. */
export interface OomVictim {
  id: string;
  argv: string[];
  memoryBytes: number;
  limitBytes: number;
}

interface Live {
  spec: TaskSpec;
  proc: SimProcess;
  log: CriLogWriter;
  stdinShell?: ExecSession;
}

/** Exited tasks kept for their owner to read (a shim keeps them until Delete). */
const MAX_EXITED = 256;

/** How far apart the containers of a shared PID namespace number their processes (each container's own pids stay small). */
const SHARED_PID_STRIDE = 1000;
/** The pause process's resident memory, as ps shows it. */
const PAUSE_RSS_BYTES = 300 * 1024;

/** A sandbox's tasks in this process. */
export class LocalTasks implements Tasks {
  private readonly live = new Map<string, Live>();
  /** Containers in the pod's shared PID namespace and where their pids start (shareProcessNamespace: the pause process is PID 1). */
  private readonly sharedPids = new Map<string, number>();
  private sharedCount = 0;
  /** Each container's slot in the node's process table (hostPID views). */
  private readonly nodeSlots = new Map<string, number>();
  private readonly createdMs = Date.now();
  private readonly exited = new Map<string, TaskStatus>();
  private readonly listeners = new Set<Listener>();
  readonly ports: Ports = {};
  private down = false;
  private closed = false;

  constructor(
    private readonly opts: LocalTasksOptions,
    private readonly events: TaskEvents,
  ) {}

  /** Whether any task still runs. */
  get running(): number {
    return this.live.size;
  }

  /** The running tasks and their main process's command line. */
  list(): { id: string; argv: string[] }[] {
    return [...this.live].map(([id, l]) => ({ id, argv: l.proc.argv }));
  }

  /** A running task's process (Exec, Attach and stats in the process that owns it). */
  process(id: string): { proc: SimProcess; spec: TaskSpec; stdinShell?: ExecSession } | undefined {
    const l = this.live.get(id);
    return l && !l.proc.exit ? { proc: l.proc, spec: l.spec, ...(l.stdinShell ? { stdinShell: l.stdinShell } : {}) } : undefined;
  }

  /**
   * The pod's PID namespace as container `id` sees it: the pause process as
   * PID 1 and the processes of every container that shares it, each
   * container's numbered from its own offset.
   */
  private sharedPidNamespace(id: string): PidNamespaceView {
    this.sharedPids.set(id, 1 + SHARED_PID_STRIDE * this.sharedCount++);
    return {
      processes: () => {
        const out: ProcEntry[] = [{ pid: 1, ppid: 0, argv: ['/pause'], startedMs: this.createdMs, cpuMs: 0, rssBytes: PAUSE_RSS_BYTES }];
        for (const [cid, offset] of this.sharedPids) {
          const l = this.live.get(cid);
          if (!l || l.proc.exit) continue;
          for (const p of l.proc.processes()) out.push({ ...p, pid: p.pid + offset, ppid: p.ppid === 0 ? 0 : p.ppid + offset });
        }
        return out.sort((a, b) => a.pid - b.pid);
      },
      pidOf: (pid) => pid + (this.sharedPids.get(id) ?? 0),
    };
  }

  /**
   * The node's PID namespace (hostPID) as container `id` sees it: the
   * processes of every container of the pod numbered as the node numbers
   * them, from this shim's pid on (the pid verbose info reports).
   */
  private nodePidNamespace(id: string): PidNamespaceView {
    const base = (cid: string) => {
      let n = this.nodeSlots.get(cid);
      if (n === undefined) this.nodeSlots.set(cid, (n = this.nodeSlots.size));
      return (this.opts.shimPid ?? process.pid) - 1 + SHARED_PID_STRIDE * n;
    };
    base(id);
    return {
      processes: () => {
        const out: ProcEntry[] = [{ pid: (this.opts.shimPid ?? process.pid) - 1, ppid: 1, argv: ['/pause'], startedMs: this.createdMs, cpuMs: 0, rssBytes: PAUSE_RSS_BYTES }];
        for (const [cid, l] of this.live) {
          if (l.proc.exit) continue;
          const offset = base(cid);
          for (const p of l.proc.processes()) out.push({ ...p, pid: p.pid + offset, ppid: p.ppid === 0 ? 1 : p.ppid + offset });
        }
        return out.sort((a, b) => a.pid - b.pid);
      },
      pidOf: (pid) => pid + base(id),
    };
  }

  start(spec: TaskSpec): Promise<{ startedAt: string }> {
    if (this.down) return Promise.reject(new Error('sandbox network is torn down'));
    if (this.live.has(spec.id)) return Promise.reject(new Error(`task ${spec.id}: already exists`));
    const log = new CriLogWriter(spec.logPath || undefined, (e) => this.opts.warn('cannot write container log', { container: spec.id, err: e.message }));
    // The pod's DNS client: queries leave from the pod IP; in loopback mode the socket-LB maps carry them (without them, nothing does).
    const route = this.opts.networkMode === 'loopback' && this.opts.podIp ? this.opts.route : undefined;
    const dns =
      this.opts.networkMode === 'pod-ip' && this.opts.podIp
        ? udpTransport({ localAddress: this.opts.podIp })
        : route
          ? udpTransport({ localAddress: '127.0.0.1', route: (ip, port) => route(ip, port, 'UDP', this.opts.podIp) })
          : undefined;
    const proc: SimProcess = new SimProcess({
      argv: spec.argv,
      env: spec.env,
      cwd: spec.cwd,
      files: spec.files,
      programs: spec.programs,
      timeScale: this.opts.timeScale,
      memoryLimitBytes: spec.memoryLimitBytes,
      baseMemoryBytes: spec.baseMemoryBytes,
      // The CRI log is lines of text: bytes a command passed through are read as UTF-8 there.
      output: (stream, data) => log.write(stream, chunkText(data)),
      listen: (port, handler) => this.listen(port, handler),
      connect: (host, port) =>
        dialTcp(
          this.opts.networkMode,
          this.opts.podIp,
          host,
          port,
          (p) => this.ports[String(p)],
          async (name) => (await resolveHost(name, proc.fs, dns)).addresses[0]!,
          route ? (ip, port) => route(ip, port, 'TCP', this.opts.podIp) : undefined,
        ),
      ...(dns ? { dns } : {}),
      // Projected volumes are the kubelet's files, refreshed from the host (watchMounts), never written to it.
      mounts: spec.mounts.map((m) => ({ containerPath: m.containerPath, readonly: !!m.readonly, tmpfs: !!m.hostPath && isProjected(m.hostPath) })),
      ...(spec.cpuMax ? { cpuMax: spec.cpuMax } : {}),
      ...(spec.security ? { security: spec.security } : {}),
      ...(spec.security?.pidNamespace === 'POD' ? { pidNamespace: this.sharedPidNamespace(spec.id) } : spec.security?.pidNamespace === 'NODE' ? { pidNamespace: this.nodePidNamespace(spec.id) } : {}),
      ...(spec.hostNamespaces ? { hostNamespaces: spec.hostNamespaces } : {}),
      writeThrough: new WriteThrough(
        spec.mounts.filter((m) => m.hostPath && !isProjected(m.hostPath)),
        this.opts.warn,
      ),
    });
    let stdinShell: ExecSession | undefined;
    try {
      stdinShell = this.opts.mainProcess?.(spec, proc);
      if (stdinShell) proc.startWith(() => stdinShell!.run());
      else proc.start();
    } catch (err) {
      log.close();
      if (err instanceof StartError) return Promise.reject(new TaskStartError(err.message));
      return Promise.reject(err as Error);
    }
    this.exited.delete(spec.id);
    this.live.set(spec.id, { spec, proc, log, ...(stdinShell ? { stdinShell } : {}) });
    const startedAt = proc.startedAt!.toString();
    void proc.exited.then((exit) => {
      if (this.closed) return;
      if (exit.reason === 'OOMKilled') this.opts.oomKilled?.({ id: spec.id, argv: spec.argv, memoryBytes: proc.memoryBytes(), limitBytes: proc.memoryLimitBytes });
      log.close();
      this.live.delete(spec.id);
      this.sharedPids.delete(spec.id);
      const e: TaskExit = { exitCode: exit.exitCode, reason: exit.reason, message: exit.message, finishedAt: exit.finishedAt.toString() };
      this.exited.set(spec.id, { id: spec.id, startedAt, exit: e });
      for (const old of this.exited.keys()) {
        if (this.exited.size <= MAX_EXITED) break;
        this.exited.delete(old);
      }
      this.events.exit(spec.id, e);
    });
    this.watchMounts(spec, proc);
    return Promise.resolve({ startedAt });
  }

  async kill(id: string, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const proc = this.live.get(id)?.proc;
    if (!proc || proc.exit) return;
    if (signal === 'SIGTERM') proc.term();
    else proc.kill();
  }

  async execSync(id: string, cmd: string[], timeoutMs: number): Promise<ExecOutcome> {
    const proc = this.live.get(id)?.proc;
    if (!proc || proc.exit) throw new Error('container is in CONTAINER_EXITED state');
    return proc.execSync(cmd, timeoutMs);
  }

  async usage(id: string): Promise<TaskUsage | undefined> {
    const proc = this.live.get(id)?.proc;
    if (!proc || !proc.startedAt) return undefined;
    // What a program declares it burns plus the time the container's shells held the thread, capped by cpu.max as CFS throttles it (cfs.ts).
    return {
      memoryBytes: proc.memoryBytes(),
      cpuCoreNanos: BigInt(Math.round(proc.cpuStat().usageUsec * 1000)).toString(),
      nanoCores: Math.round(cfsCores(proc.demandCores(), proc.cpuMax) * 1e9),
      fsBytes: proc.fs.writtenBytes,
      limit: proc.memoryLimitBytes,
    };
  }

  async update(id: string, memoryLimitBytes: number): Promise<void> {
    const proc = this.live.get(id)?.proc;
    if (!proc) return;
    proc.memoryLimitBytes = memoryLimitBytes;
    if (memoryLimitBytes > 0 && proc.memoryBytes() >= memoryLimitBytes) proc.oomKill();
  }

  async reopenLog(id: string): Promise<void> {
    this.live.get(id)?.log.reopen();
  }

  async state(): Promise<{ tasks: TaskStatus[]; ports: Ports }> {
    const tasks: TaskStatus[] = [...this.exited.values()];
    for (const [id, l] of this.live) tasks.push({ id, startedAt: l.proc.startedAt!.toString() });
    return { tasks, ports: { ...this.ports } };
  }

  async delete(id: string): Promise<void> {
    this.exited.delete(id);
  }

  async shutdown(): Promise<void> {
    this.down = true;
    for (const l of [...this.listeners]) await l.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const l of this.live.values()) l.proc.kill();
    for (const l of [...this.listeners]) await l.close();
  }

  private async listen(port: number, handler: PortHandler): Promise<Listener> {
    if (this.down) throw new Error('sandbox network is torn down');
    // A UDP port is its own socket beside the TCP one of the same number (a DNS server's 53/UDP and 53/TCP).
    const key = isUdpHandler(handler) ? `${port}/UDP` : String(port);
    if (this.ports[key]) throw new Error('98: Address already in use');
    const l = await listenPort(this.opts.networkMode, this.opts.podIp || '127.0.0.1', port, handler);
    this.ports[key] = { hostIp: l.hostIp, hostPort: l.hostPort };
    this.events.ports({ ...this.ports });
    const closing: Listener = {
      ...l,
      close: async () => {
        this.listeners.delete(closing);
        if (this.ports[key]?.hostPort === l.hostPort) {
          delete this.ports[key];
          if (!this.closed) this.events.ports({ ...this.ports });
        }
        await l.close();
      },
    };
    this.listeners.add(closing);
    return closing;
  }

  /**
   * Keeps a running container's copies of kubelet-projected volumes in step
   * with the host, as a bind mount would: on a swap of `..data` the files are
   * copied again. Other mounts stay the snapshot taken at start (subPath
   * mounts of a ConfigMap never update upstream either).
   */
  private watchMounts(spec: TaskSpec, proc: SimProcess): void {
    const watched = spec.mounts
      .filter((m) => m.hostPath && m.containerPath && isProjected(m.hostPath))
      .map((m) => {
        const mount = { hostPath: m.hostPath, containerPath: m.containerPath.replace(/\/+$/, '') };
        return { mount, version: dataVersion(m.hostPath), files: new Set(Object.keys(copyMounts([mount], this.opts.warn))) };
      });
    if (!watched.length) return;
    // One refresh at a time; notifications during one run it again once more (a swap is several renames).
    let busy = false;
    let again = false;
    const refresh = async (): Promise<void> => {
      if (proc.exit) return;
      if (busy) return void (again = true);
      busy = true;
      try {
        for (const w of watched) {
          const version = dataVersion(w.mount.hostPath);
          if (version === w.version) continue;
          w.version = version;
          const next = copyMounts([w.mount], this.opts.warn);
          for (const path of w.files) if (!(path in next)) await proc.fs.refreshFile(path, undefined).catch(() => {});
          for (const [path, content] of Object.entries(next)) await proc.fs.refreshFile(path, content);
          w.files = new Set(Object.keys(next));
        }
      } catch (err) {
        this.opts.warn('cannot refresh mount', { container: spec.id, err: (err as Error).message });
      } finally {
        busy = false;
      }
      if (again) {
        again = false;
        await refresh();
      }
    };
    const stops = watched.map((w) => followDataLink(w.mount.hostPath, () => void refresh()));
    // A swap between the snapshot above and the watches' start is caught here.
    void refresh();
    void proc.exited.then(() => stops.forEach((stop) => stop()));
  }
}

/** Starts and finds the shim processes that run sandboxes' tasks (shim/launcher.ts). */
export interface ShimLauncher {
  /** A new shim for sandbox `id` (RunPodSandbox). */
  start(id: string, podIp: string, events: TaskEvents): Promise<Tasks>;
  /** The shim a previous containerd left for sandbox `id` (its task directory), undefined when it is gone. */
  connect(id: string, events: TaskEvents): Promise<Tasks | undefined>;
  /** Ends the shims of sandboxes the metadata does not know (started just before containerd died unrecorded); returns their ids. */
  cleanup(known: Set<string>): string[];
  /** The real pid of sandbox `id`'s shim (the process the node's ps shows its containers under); undefined when unknown. */
  pid?(id: string): number | undefined;
}
