// A container's main process, simulated: its argv runs in a just-bash shell
// over a per-container in-memory filesystem seeded from the image. Output
// streams to the CRI log; ExecSync runs further commands on the same
// filesystem. Signals follow PID-1 rules: TERM is ignored unless the process
// traps it (`trap '...' TERM`) or is a program that handles it (nginx, pause);
// KILL always ends it with 137. A trap runs as in sh: once the foreground
// command is done, or at once when the shell is in `wait` (which returns 143);
// the script goes on unless the action exits. Time inside the container runs `timeScale`
// times faster than wall time (sleep 30 takes 30/timeScale seconds).
// Job control: `cmd &` starts a concurrent job with its own pid (shell.ts
// rewrites it); `wait`, `$!` and `kill PID` see the jobs; they die with PID 1.
// Loops pass checkpoints that hand the runtime's one thread back (cpu.ts).

import { setMaxListeners } from 'node:events';
import { posix } from 'node:path';
import { Bash, defineCommand, getCommandNames, type BashExecResult, type CommandContext } from 'just-bash';
import type { WriteThrough } from './write-through.js';
import { ContainerFs } from './containerfs.js';
import type { DnsTransport } from './resolver.js';
import type { Socket } from 'node:net';
import { isUdpHandler, type Listener, type PortHandler } from './network.js';
import { TTY_VAR, type ProgramProcess, type Terminal } from './program-process.js';
import { hostnameCommand, unameCommand } from './coreutils.js';
import { DEFAULT_SECURITY, hasCapability, seccompDenies, type ContainerSecurity } from './security/context.js';
import { hostnameRefusal, securityCommands, setsHostname, userlandOf } from './security/commands.js';
import { SecurityFs } from './security/filesystem.js';
import { parsePasswd } from './security/users.js';
import { programsFor } from './programs.js';
import { runEntrypoint } from './programs/entrypoints.js';
import { ashText, busyboxCommand, dialectCommands, nc, shellDialect, type ShellDialect } from './programs/userland.js';
import { ok, type Result } from './programs/util.js';
import { tarCommand } from './tar.js';
import { tailCommand } from './tail-bytes.js';
import {
  JOB_COMMAND,
  LAST_JOB_VAR,
  STATUS_COMMAND,
  TRAP_COMMAND,
  TRAP_EVAL_VAR,
  TRAP_POINT_COMMAND,
  WAIT_COMMAND,
  argvToScript,
  basename,
  canTrap,
  insertCheckpoints,
  quoteArg,
  rewriteJobs,
  scriptFileOf,
  shellScript,
} from './shell.js';
import type { Stream } from './logs.js';
import { chunkText, stderrFirst, type Chunk } from './output.js';
import { nowNanos } from './time.js';
import { CFS_ZERO, cfsStep, type CfsStat } from './cfs.js';
import { CpuMeter } from './cpu.js';
import { shellErrorText } from './node-faults.js';
import { commName, type MountEntry, type ProcEntry, type SystemView } from './procfs.js';

// Captured before any script runs: just-bash's defence layer may patch globals.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** Timers for container sleeps: `ms` is wall time, the time scale already applied. */
export interface SleepTimers {
  setTimeout(fn: () => void, ms: number): { stop(): unknown };
}

export interface ExitInfo {
  exitCode: number;
  /** Completed, Error, OOMKilled (CRI reason strings). */
  reason: string;
  message: string;
  finishedAt: bigint;
}

export interface ProcessOptions {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Image rootfs plus runtime-provided files (/etc/hostname, /etc/hosts, /etc/resolv.conf). */
  files: Record<string, string>;
  /** Simulated binaries the image ships (nginx, pause, crasher, ...). */
  programs: string[];
  timeScale: number;
  memoryLimitBytes: number;
  baseMemoryBytes: number;
  output: (stream: Stream, data: Chunk) => void;
  /** Serves a container port (see network.ts). */
  listen: (port: number, handler: PortHandler) => Promise<Listener>;
  /** Opens an outgoing TCP connection from the pod (see network.ts dialTcp). */
  connect: (host: string, port: number) => Promise<Socket>;
  /** The pod's DNS transport (resolver.ts); absent when there is no pod network (loopback mode). */
  dns?: DnsTransport;
  /** Writable host mounts whose writes reach the host (write-through.ts). */
  writeThrough?: WriteThrough;
  /** The CRI mounts as the container's mount table lists them (procfs.ts). */
  mounts?: MountEntry[];
  /** cpu.max from the CRI resources: quota and period in µs (quota 0: no limit). */
  cpuMax?: { quota: number; period: number };
  /** What container sleeps wait on (default: Node's timers); a test's hand-moved clock (a FakeClock fits) makes their order exact. */
  timers?: SleepTimers;
  /** The security context as runc applied it (security/context.ts); absent: root with containerd's defaults. */
  security?: ContainerSecurity;
  /** A PID namespace shared with the pod's other containers (shareProcessNamespace): its process table and this container's pids in it. */
  pidNamespace?: PidNamespaceView;
  /** The sandbox shares the node's namespaces (NamespaceOption NODE): what the container sees of them is the node's. */
  hostNamespaces?: HostNamespaces;
}

export interface HostNamespaces {
  network?: boolean;
  ipc?: boolean;
}

/** A pod-wide PID namespace as one container sees it (tasks.ts builds it). */
export interface PidNamespaceView {
  processes(): ProcEntry[];
  /** The namespace pid of this container's process `pid`. */
  pidOf(pid: number): number;
}

/** Resident memory of a process besides PID 1 (a shell or an applet), as ps shows it. */
const PROCESS_RSS_BYTES = 1_200 * 1024;

export interface ExecOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut: boolean;
}

/** The start-time failure of runc when argv[0] cannot be found in the image. */
export class StartError extends Error {
  override name = 'StartError';
}

/** just-bash's own commands (each has a /bin stub). */
const BASH_COMMANDS = new Set<string>(getCommandNames());
const SHELL_BUILTINS = new Set(['exec', 'exit', 'true', 'false', 'trap', 'cd', 'export', 'set', 'read', 'wait', 'kill', ':', '.', 'source', 'eval', 'test', '[']);
const TERM_NAMES = new Set(['TERM', 'SIGTERM', '15']);
/** What `wait` returns when a trapped signal cuts it short (128 + TERM). */
const WAIT_INTERRUPTED = 143;
const FS_LIMIT_BYTES = 64 * 1024 * 1024;
/** Directories of a base image's root that kubectl cp relies on (`test -d /tmp`), with their modes: /tmp is world-writable and sticky. */
const ROOTFS_DIRS: [string, number][] = [['/tmp', 0o1777]];
/** Signals `kill` knows (Linux numbering). */
const SIGNALS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, KILL: 9, USR1: 10, USR2: 12, TERM: 15 };
/** Finished jobs remembered for `wait PID`, like the shell's job table. */
const MAX_FINISHED_JOBS = 256;
/** A container's loop that holds the thread this long never reached a checkpoint (eval'd or sourced text): it is ended rather than left to freeze the runtime. */
const RUNAWAY_LOOP_MS = 2000;

/** A background job (`cmd &`): a subshell of shell `owner`. */
interface Job {
  pid: number;
  owner: number;
  ctl: AbortController;
  done: Promise<number>;
  settle: (exitCode: number) => void;
  exitCode: number | undefined;
}

/** Settles with `p`, or earlier when one of `signals` aborts; its listeners go away either way (long loops call it often). */
function untilAborted(p: Promise<unknown>, ...signals: (AbortSignal | undefined)[]): Promise<unknown> {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) return Promise.resolve();
  let onAbort!: () => void;
  const abort = new Promise<void>((resolve) => {
    // Resolves with nothing (not the abort Event): execStream reads an undefined result as aborted.
    onAbort = () => resolve();
    for (const s of live) s.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([p, abort]).finally(() => {
    for (const s of live) s.removeEventListener('abort', onAbort);
  });
}

/**
 * Last resort for loops the rewrite never saw (text run by eval or source):
 * just-bash reads the iteration limit on every pass, so the limit drops to 0
 * once the thread has been held for RUNAWAY_LOOP_MS and such a loop fails
 * ("too many iterations") instead of freezing every container and CRI call.
 */
function guardRunawayLoops(bash: Bash, cpu: CpuMeter): void {
  const holder = bash as unknown as { limits?: Record<string, unknown> };
  if (typeof holder.limits?.maxLoopIterations !== 'number') return;
  // A new object with the getter in its literal: redefining the property in place would turn every limit read slow.
  holder.limits = {
    ...holder.limits,
    get maxLoopIterations() {
      return cpu.runningMs() < RUNAWAY_LOOP_MS ? Number.MAX_SAFE_INTEGER : 0;
    },
  };
}

/** The SystemView of `p`, read live. */
function systemView(p: SimProcess): SystemView {
  return {
    processes: () => p.pidNamespace?.processes() ?? p.processes(),
    selfPid: () => {
      const own = p.processes().at(-1)?.pid ?? 1;
      return p.pidNamespace ? p.pidNamespace.pidOf(own) : own;
    },
    nsPid: (pid) => (p.pidNamespace ? p.pidNamespace.pidOf(pid) : pid),
    lastPid: () => p.lastPid,
    get memoryLimitBytes() {
      return p.memoryLimitBytes;
    },
    memoryBytes: () => p.memoryBytes(),
    get cpuMax() {
      return p.cpuMax;
    },
    cpuStat: () => p.cpuStat(),
    get mounts() {
      return p.mounts;
    },
    get writtenBytes() {
      return p.fs.writtenBytes;
    },
    listeningPorts: () => p.listeningPorts(),
    get security() {
      return p.security;
    },
    get hostNamespaces() {
      return p.hostNamespaces;
    },
  };
}

export class SimProcess implements ProgramProcess {
  readonly fs: ContainerFs;
  readonly bash: Bash;
  /** The image's shell: busybox ash or bash (its error texts, `$0`, the commands it has). */
  readonly dialect: ShellDialect;
  exit: ExitInfo | undefined;
  startedAt: bigint | undefined;
  /** Extra memory a program allocated (memhog), on top of the image's baseline. */
  allocatedBytes = 0;
  /** Loop checkpoints of this container's shells and the time they ran. */
  readonly cpu = new CpuMeter();
  private declaredCores = 0.001;
  /** CPU time the declared cores burnt before the last change of rate, ms. */
  private declaredMs = 0;
  private declaredSince = performance.now();
  /** What cpu.stat has accounted so far (cfs.ts), and up to which demand and time. */
  private cfsStat: CfsStat = CFS_ZERO;
  private cfsAt = performance.now();
  private cfsDemandMs = 0;
  memoryLimitBytes: number;
  /** The security context the kernel applies to every process of the container. */
  readonly security: ContainerSecurity;
  /** The owner of its processes as ps shows it. */
  private readonly user: string;

  private readonly main = new AbortController();
  private killedResolve!: () => void;
  /** Resolves when the process is killed (KILL, OOM): long-running programs race against it. */
  readonly killed: Promise<void> = new Promise((r) => (this.killedResolve = r));
  /** TERM actions by shell (`trap ACTION TERM`; '' ignores it); only PID 1's ever gets the signal. */
  private readonly traps = new Map<number, string>();
  /** A trapped TERM came: PID 1's next trap point runs the action. */
  private termPending = false;
  /** Aborted when a trapped TERM comes: PID 1's `wait` returns at once. */
  private termArrived = new AbortController();
  private readonly termHandlers = new Set<() => void>();
  private forced: Omit<ExitInfo, 'finishedAt'> | undefined;
  private exitedResolve!: (e: ExitInfo) => void;
  readonly exited: Promise<ExitInfo> = new Promise((r) => (this.exitedResolve = r));
  private readonly listeners = new Set<Listener>();
  /** Which of the listeners serve UDP (netstat -u). */
  private readonly udpListeners = new WeakSet<Listener>();
  /** Pids of jobs, execs and nested shells; 1 is the main process. */
  private nextPid = 2;
  private readonly jobs = new Map<number, Job>();
  /** Where each process's fds 1 and 2 lead: PID 1 to the log, an exec to its output buffer. */
  private readonly sinks = new Map<number, (stream: Stream, data: Chunk) => void>([[1, (s, t) => this.write(s, t)]]);
  /** A job inherits its parent's fds: its output goes wherever the parent's goes. */
  private readonly parents = new Map<number, number>();
  /** Aborted when PID 1 ends: every job dies with it, sleeps and waits end. */
  private readonly jobsCtl = new AbortController();
  /** The PID namespace's live processes (ps, /proc/PID): PID 1, execs and jobs. */
  private readonly table = new Map<number, { ppid: number; argv: string[]; startedMs: number; comm?: string }>();

  constructor(private readonly opts: ProcessOptions) {
    // Every concurrent sleep and wait listens on it: no leak warning at 11.
    setMaxListeners(0, this.jobsCtl.signal);
    this.memoryLimitBytes = opts.memoryLimitBytes;
    this.fs = new ContainerFs(
      opts.files,
      (pid, s, t) => this.emit(pid, s, t),
      () => this.cpu.checkpoint(),
      opts.writeThrough,
    );
    // The directories every image's rootfs has, even when no file of the image lies in them (kubectl cp checks `test -d /tmp`).
    for (const [dir, mode] of ROOTFS_DIRS) {
      this.fs.mkdirSync(dir, { recursive: true });
      // In memory: done before any script runs, though the interface is async.
      void this.fs.chmod(dir, mode).catch(() => {});
    }
    const programs = programsFor(opts.programs, this);
    this.dialect = shellDialect(opts.files);
    const userland = dialectCommands(this.dialect, opts.programs);
    this.fs.hiddenCommands = userland.hidden;
    // `trap` reached without the rewrite (eval'd text) is taken as PID 1's.
    const trap = defineCommand('trap', async (args) => this.trapCommand(1, args));
    const ownTrap = defineCommand(TRAP_COMMAND, async (args) => this.trapCommand(Number(args[0]), args.slice(1)));
    const trapPoint = defineCommand(TRAP_POINT_COMMAND, async (args, ctx) => this.trapPoint(Number(args[0]) || 0, ctx));
    const status = defineCommand(STATUS_COMMAND, async (args) => ok('', Number(args[0]) || 0));
    const job = defineCommand(JOB_COMMAND, async (args, ctx) => this.startJob(args, ctx));
    const wait = defineCommand(WAIT_COMMAND, async (args, ctx) => this.waitCommand(args, ctx));
    const kill = defineCommand('kill', async (args) => this.killCommand(args));
    // The UTS namespace's name is the pod's hostname (/etc/hostname), not the interpreter's "localhost".
    const uts = opts.files['/etc/hostname']?.split('\n')[0] || opts.env.HOSTNAME || 'localhost';
    const security = opts.security ?? DEFAULT_SECURITY;
    this.security = security;
    // Root stays `root` even in an image without /etc/passwd (as before); another uid is named from the image's passwd.
    this.user = security.identity.uid === 0 ? 'root' : (parsePasswd(opts.files['/etc/passwd']).find((e) => e.uid === security.identity.uid)?.name ?? String(security.identity.uid));
    const secFs = new SecurityFs(security, opts.mounts ?? [], userlandOf(opts.files['/etc/os-release']));
    this.fs.security = secFs;
    // Setting the UTS name needs CAP_SYS_ADMIN; with it the name is accepted (and not kept).
    const hostname = hostnameCommand(
      uts,
      () => this.fs.readFile('/etc/hosts'),
      // A seccomp profile may refuse sethostname even with the capability; a name that is set prints nothing.
      (args) => (!setsHostname(args) ? undefined : !hasCapability(security, 'SYS_ADMIN') || seccompDenies(security, 'sethostname') ? hostnameRefusal(secFs.userland) : ok()),
    );
    this.bash = new Bash({
      fs: this.fs,
      cwd: opts.cwd,
      // `$0` of the image's shell (ash's is sh; the interpreter's own default is bash).
      env: this.dialect === 'ash' ? { ...opts.env, '0': 'sh' } : opts.env,
      // The scripts are pod commands in an interpreter without host access;
      // the defence layer would patch process globals the server needs.
      defenseInDepth: false,
      sleep: (ms) => this.sleep(ms),
      customCommands: [
        trap,
        ownTrap,
        trapPoint,
        status,
        job,
        wait,
        kill,
        hostname,
        unameCommand(uts),
        ...securityCommands(() => security, secFs),
        tarCommand(),
        tailCommand(),
        ...userland.commands,
        ...(this.dialect === 'ash' ? [nc(this), busyboxCommand] : []),
        ...programs,
      ],
      executionLimits: {
        maxExecutionTimeMs: Number.POSITIVE_INFINITY,
        maxLoopIterations: Number.MAX_SAFE_INTEGER,
        maxCommandCount: Number.MAX_SAFE_INTEGER,
        maxFileSystemBytes: FS_LIMIT_BYTES,
      },
      processInfo: { pid: 1, ppid: 0, uid: security.identity.uid, gid: security.identity.gid },
    });
    this.fs.sealStubs();
    this.fs.procView = this.system;
    // Every script the shell runs, nested ones too (`sh -c '... &'` inside a script): their jobs log to PID 1's output; loops get checkpoints.
    this.bash.registerTransformPlugin({
      name: 'kubelab-job-control',
      transform: ({ ast }) => {
        rewriteJobs(ast, () => this.newPid(1));
        insertCheckpoints(ast);
        return { ast };
      },
    });
    guardRunawayLoops(this.bash, this.cpu);
  }

  /** Output of PID 1 to the container log; nothing once it has exited (its jobs are gone too). */
  write(stream: Stream, text: Chunk): void {
    if (text.length === 0 || this.exit) return;
    text = this.shellText(stream, text);
    this.opts.output(stream, text);
    for (const tap of this.outputTaps) tap(stream, text);
  }

  // --- Attach hook (streaming/attach.ts): clients attached to PID 1 see its output; PID 1 may be a session on the container's stdin (startWith). ---
  private readonly outputTaps = new Set<(stream: Stream, data: Chunk) => void>();

  /** Copies PID 1's output from now on to `tap` (an attached client) until the returned function is called. */
  tapOutput(tap: (stream: Stream, data: Chunk) => void): () => void {
    this.outputTaps.add(tap);
    return () => this.outputTaps.delete(tap);
  }

  /** The main process's command line. */
  get argv(): string[] {
    return this.opts.argv;
  }
  // --- end of the attach hook ---

  /** Output of process `pid` as it runs (a program that streams: top). */
  writeTo(pid: number, stream: Stream, text: string): void {
    this.emit(pid, stream, text);
  }

  /** Output on process `pid`'s fds: to the nearest ancestor with a sink; dropped when that one is gone (an exec that ended). */
  private emit(pid: number, stream: Stream, text: Chunk): void {
    text = this.shellText(stream, text);
    let p: number | undefined = pid;
    while (p !== undefined && !this.sinks.has(p)) p = this.parents.get(p);
    if (p !== undefined) this.sinks.get(p)!(stream, text);
  }

  /** The shell's error texts in the image's shell's words (ash for busybox and alpine). */
  shellText<T extends Chunk>(stream: Stream, text: T): T {
    if (stream !== 'stderr' || this.dialect !== 'ash') return text;
    if (typeof text === 'string') return ashText(text) as T;
    // Bytes written to the fd: only a line that names the interpreter or a refused write is rewritten.
    const latin1 = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('latin1');
    return (latin1.includes('bash: ') || latin1.includes('cannot ') ? Buffer.from(ashText(latin1), 'latin1') : text) as T;
  }

  private newPid(parent?: number): number {
    const pid = this.nextPid++;
    if (parent !== undefined) this.parents.set(pid, parent);
    return pid;
  }

  get timeScale(): number {
    return this.opts.timeScale;
  }

  /** Sleeps `ms` of container time; ends early when the process is killed. */
  async sleep(ms: number): Promise<void> {
    const wallMs = ms / this.opts.timeScale;
    const timers = this.opts.timers;
    let stop = () => {};
    const done = new Promise<void>((resolve) => {
      if (timers) {
        const t = timers.setTimeout(resolve, wallMs);
        stop = () => void t.stop();
      } else {
        const t = realSetTimeout(resolve, wallMs);
        stop = () => realClearTimeout(t);
      }
    });
    await untilAborted(done, this.jobsCtl.signal);
    stop();
  }

  /** Registers a program's TERM handler (nginx quits gracefully); returns an unregister function. */
  onTerm(handler: () => void): () => void {
    this.termHandlers.add(handler);
    return () => this.termHandlers.delete(handler);
  }

  /** Serves a container port for a program; closed when the process exits. */
  async listen(port: number, handler: PortHandler): Promise<Listener> {
    const l = await this.opts.listen(port, handler);
    this.listeners.add(l);
    if (isUdpHandler(handler)) this.udpListeners.add(l);
    return l;
  }

  /** How nslookup and the resolver reach the pod's nameservers (undefined: no pod network). */
  get dns(): DnsTransport | undefined {
    return this.opts.dns;
  }

  /** An outgoing TCP connection (redis-cli, wget); closed by the caller. */
  connect(host: string, port: number): Promise<Socket> {
    return this.opts.connect(host, port);
  }

  async unlisten(l: Listener): Promise<void> {
    this.listeners.delete(l);
    await l.close();
  }

  /** Starts the main process; throws StartError when argv[0] is not in the image. */
  start(): void {
    let argv = this.opts.argv;
    if (argv.length === 0)
      throw new StartError(
        'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: no command specified: unknown',
      );
    let prelude = '';
    const entrypoint = runEntrypoint(argv, this.opts.env, this.opts.programs);
    if (entrypoint) ({ prelude, argv } = entrypoint);
    const name = argv.length ? basename(argv[0]!) : '';
    if (argv.length && !this.commandExists(name)) {
      throw new StartError(
        `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "${argv[0]}": executable file not found in $PATH: unknown`,
      );
    }
    const text = prelude + (this.scriptFile(argv) ?? argvToScript(argv));
    const script = shellScript(text, 1, true, canTrap(text));
    this.startWith(() => this.bash.exec(script, { signal: this.main.signal }));
  }

  /**
   * Starts PID 1 as `run`: an interactive shell reading the container's stdin
   * (its exit code), or its argv's script (start: the script's result with
   * its last output). It exits with run's result.
   */
  startWith(run: () => Promise<number | Result>): void {
    this.startedAt = nowNanos();
    this.table.set(1, { ppid: 0, argv: this.opts.argv, startedMs: Date.now() });
    run().then(
      (r) => this.finish(typeof r === 'number' ? { stdout: '', stderr: '', exitCode: r } : r),
      (err: unknown) => this.finish({ stdout: '', stderr: `${shellErrorText(err)}\n`, exitCode: 1 }),
    );
  }

  /** `sh FILE ARGS`: PID 1 is that shell, so the file is its script (its traps are PID 1's). */
  private scriptFile(argv: string[]): string | undefined {
    const f = scriptFileOf(argv);
    const text = f && this.opts.files[posix.resolve(this.opts.cwd, f.path)];
    if (f === undefined || text === undefined) return undefined;
    return f.args.length ? `set -- ${f.args.map(quoteArg).join(' ')}\n${text}` : text;
  }

  private commandExists(name: string): boolean {
    return SHELL_BUILTINS.has(name) || this.opts.programs.includes(name) || BASH_COMMANDS.has(name) || name === 'sh' || name === 'bash';
  }

  private finish(r: Pick<BashExecResult, 'stdout' | 'stderr' | 'exitCode'>): void {
    if (this.exit) return;
    this.write('stdout', r.stdout);
    this.write('stderr', r.stderr);
    const f = this.forced;
    const exitCode = f ? f.exitCode : r.exitCode;
    this.exit = {
      exitCode,
      reason: f ? f.reason : exitCode === 0 ? 'Completed' : 'Error',
      message: f ? f.message : '',
      finishedAt: nowNanos(),
    };
    // PID 1 is gone: the kernel kills every other process of the container.
    this.jobsCtl.abort();
    for (const j of this.jobs.values()) j.settle(137);
    for (const l of this.listeners) void l.close();
    this.listeners.clear();
    this.killedResolve();
    this.exitedResolve(this.exit);
  }

  /**
   * SIGTERM to PID 1: a trap is made due (it runs at the script's next trap
   * point, and cuts a `wait` short); a program's handler runs; otherwise it
   * is ignored, as the kernel gives a namespace's init no default action.
   */
  term(): void {
    if (this.exit) return;
    const action = this.traps.get(1);
    if (action !== undefined) {
      if (action === '') return;
      this.termPending = true;
      this.termArrived.abort();
      this.termArrived = new AbortController();
      return;
    }
    for (const h of [...this.termHandlers]) h();
  }

  /** SIGKILL: exit 137 at once. */
  kill(): void {
    this.forceExit(137, 'Error', '');
  }

  /** The main process rewrites its command line (setproctitle: nginx's "nginx: master process ..."); /proc/1/comm keeps the executable's name. */
  setTitle(title: string, comm?: string): void {
    const t = this.table.get(1);
    if (!t) return;
    t.comm = comm ?? t.comm ?? commName(t.argv);
    t.argv = [title];
  }

  /** A child the main process forks (nginx's worker), listed until the main process exits; returns its pid in the container. */
  forkChild(title: string, comm: string): number {
    const pid = this.newPid();
    this.table.set(pid, { ppid: 1, argv: [title], startedMs: Date.now(), comm });
    return pid;
  }

  /** The cgroup OOM killer. */
  oomKill(): void {
    this.forceExit(137, 'OOMKilled', '');
  }

  private forceExit(exitCode: number, reason: string, message: string, out?: Pick<BashExecResult, 'stdout' | 'stderr'>): void {
    if (this.exit) return;
    this.forced = { exitCode, reason, message };
    this.main.abort();
    this.finish({ stdout: out?.stdout ?? '', stderr: out?.stderr ?? '', exitCode });
  }

  /** Runs a command beside the main process (ExecSync); a timeout abandons it. */
  async execSync(argv: string[], timeoutMs: number): Promise<ExecOutcome> {
    const ctl = new AbortController();
    // The exec is a process of its own: its output (and its jobs', while it runs) streams into these buffers.
    const pid = this.newPid();
    const out = { stdout: '', stderr: '' };
    this.sinks.set(pid, (s, t) => (out[s] += chunkText(t)));
    this.table.set(pid, { ppid: 0, argv, startedMs: Date.now() });
    const script = shellScript(argvToScript(argv), pid);
    // `$0` of a shell the exec names by path (`/bin/sh -c ...`) is that path, as its messages show.
    const shell0 = argv[0]?.includes('/') && argv[1] === '-c' && argvToScript(argv) === argv[2] ? { env: { '0': argv[0] } } : {};
    const run = this.bash.exec(script, { signal: ctl.signal, ...shell0 }).then(
      (r) => ({ stdout: out.stdout + r.stdout, stderr: out.stderr + this.shellText('stderr', r.stderr), exitCode: r.exitCode, timedOut: false }),
      (err: unknown) => ({ stdout: out.stdout, stderr: `${out.stderr}${this.shellText('stderr', shellErrorText(err))}\n`, exitCode: 1, timedOut: false }),
    );
    void run.finally(() => {
      this.sinks.delete(pid);
      this.table.delete(pid);
    });
    if (!(timeoutMs > 0)) return run;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<ExecOutcome>((resolve) => {
      timer = realSetTimeout(() => {
        ctl.abort();
        resolve({ stdout: '', stderr: '', exitCode: -1, timedOut: true });
      }, timeoutMs);
    });
    try {
      return await Promise.race([run, timeout]);
    } finally {
      realClearTimeout(timer);
    }
  }

  /**
   * Runs a command beside the main process for a CRI Exec stream: output goes
   * to `output` as each command finishes (bytes passed through stay bytes), stdin is given whole, and the
   * shell's variables and directory come back so an interactive session can
   * carry them to its next line. Ends when `signal` aborts or PID 1 exits.
   */
  async execStream(
    argv: string[],
    o: { output: (stream: Stream, data: Chunk) => void; stdin?: Uint8Array; env?: Record<string, string>; cwd?: string; signal?: AbortSignal; terminal?: Terminal },
  ): Promise<{ exitCode: number; env: Record<string, string> }> {
    const pid = this.newPid();
    if (o.terminal) this.terminals.set(pid, o.terminal);
    // The command finds its terminal by this variable (a program reading keys: vi).
    const env = o.terminal ? { ...(o.env ?? this.execEnv), [TTY_VAR]: String(pid) } : o.env;
    const output = stderrFirst(o.output);
    this.sinks.set(pid, output.write);
    this.table.set(pid, { ppid: 0, argv, startedMs: Date.now() });
    const signal = o.signal ? AbortSignal.any([o.signal, this.jobsCtl.signal]) : this.jobsCtl.signal;
    const run = this.bash
      .exec(shellScript(argvToScript(argv), pid), {
        signal,
        // Bytes as the client sent them: just-bash takes a latin1 string as a byte buffer.
        ...(o.stdin !== undefined ? { stdin: Buffer.from(o.stdin).toString('latin1'), stdinKind: 'bytes' as const } : {}),
        ...(env ? { env, replaceEnv: true } : {}),
        ...(o.cwd ? { cwd: o.cwd } : {}),
      })
      .then(
        (r) => {
          // An aborted run may come back without its variables.
          const { [TTY_VAR]: _tty, ...env } = r.env ?? o.env ?? {};
          if (signal.aborted) return { exitCode: 137, env };
          output.flush();
          if (r.stdout) o.output('stdout', r.stdout);
          if (r.stderr) o.output('stderr', this.shellText('stderr', r.stderr));
          return { exitCode: r.exitCode, env };
        },
        (err: unknown) => {
          if (!signal.aborted) o.output('stderr', this.shellText('stderr', `${shellErrorText(err)}\n`));
          return { exitCode: 1, env: o.env ?? {} };
        },
      );
    // An aborted command is abandoned at once (a `sleep` in it may still be winding down); its later output goes nowhere.
    try {
      const r = await untilAborted(run, signal);
      return r ? (r as { exitCode: number; env: Record<string, string> }) : { exitCode: 137, env: o.env ?? {} };
    } finally {
      output.flush();
      this.sinks.delete(pid);
      this.table.delete(pid);
      this.terminals.delete(pid);
    }
  }

  /** Terminals of interactive execs by pid (programs find theirs through TTY_VAR). */
  private readonly terminals = new Map<number, Terminal>();

  terminal(id: string | undefined): Terminal | undefined {
    return id === undefined ? undefined : this.terminals.get(Number(id));
  }

  /** The container's environment as an exec starts with it (the image's and the pod's variables). */
  get execEnv(): Record<string, string> {
    return { ...this.opts.env };
  }

  /** The working directory an exec starts in. */
  get execCwd(): string {
    return this.opts.cwd;
  }

  /** Memory in use: image baseline, program allocations and files written. */
  memoryBytes(): number {
    return this.opts.baseMemoryBytes + this.allocatedBytes + this.fs.writtenBytes;
  }

  /** `__kubelab_job OWNER SCRIPT`: forks SCRIPT as a job of shell OWNER with the caller's variables and directory; sets `$!`. */
  private async startJob(args: string[], ctx: CommandContext): Promise<Result> {
    const owner = Number(args[0]);
    if (this.jobsCtl.signal.aborted) return ok('', 1, 'sh: fork: process is exiting\n');
    const pid = this.newPid(owner);
    const ctl = new AbortController();
    let settle!: (code: number) => void;
    const job: Job = { pid, owner, ctl, done: new Promise<number>((r) => (settle = r)), settle: (c) => settle(c), exitCode: undefined };
    this.table.set(pid, { ppid: owner, argv: this.jobArgv(owner, args[1] ?? ''), startedMs: Date.now() });
    void job.done.then((code) => {
      job.exitCode = code;
      this.table.delete(pid);
      this.pruneJobs();
    });
    this.jobs.set(pid, job);
    const gone = () => ctl.signal.aborted || this.jobsCtl.signal.aborted;
    void this.bash.exec(shellScript(args[1] ?? '', pid, false), { env: Object.fromEntries(ctx.env), cwd: ctx.cwd, signal: AbortSignal.any([ctl.signal, this.jobsCtl.signal]) }).then(
      (r) => {
        if (gone()) return;
        this.emit(pid, 'stdout', r.stdout);
        this.emit(pid, 'stderr', r.stderr);
        settle(r.exitCode);
      },
      (err: unknown) => {
        if (!gone()) this.emit(pid, 'stderr', `${shellErrorText(err)}\n`);
        settle(1);
      },
    );
    // A killed job ends at once even if its current command (a sleep) is still winding down.
    ctl.signal.addEventListener('abort', () => settle(Number(ctl.signal.reason) || 143), { once: true });
    await ctx.assignShellVariable?.(LAST_JOB_VAR, String(pid));
    return ok();
  }

  /** What ps shows for a job: the command a simple job execs, else the forked shell's (its parent's) command line. */
  private jobArgv(owner: number, script: string): string[] {
    const text = script.replace(/\s*\d?>>\s*\/proc\/\d+\/fd\/\d/g, '').trim();
    if (text && !/[;&|()<>\n`$"'\\{}]/.test(text)) return text.split(/\s+/);
    return this.table.get(owner)?.argv ?? ['sh'];
  }

  /** The kernel's view of this container (procfs.ts): its processes, cgroup limits, mounts and ports. */
  readonly system: SystemView = systemView(this);

  /** The pid most recently given out. */
  get lastPid(): number {
    return this.nextPid - 1;
  }

  get hostNamespaces(): HostNamespaces {
    return this.opts.hostNamespaces ?? {};
  }

  get cpuMax(): { quota: number; period: number } {
    return this.opts.cpuMax ?? { quota: 0, period: 100_000 };
  }

  /** CPU the program burns, in cores, besides what its shells' loops run (cpu). */
  get cpuCores(): number {
    return this.declaredCores;
  }

  set cpuCores(cores: number) {
    const now = performance.now();
    this.declaredMs += this.declaredCores * (now - this.declaredSince);
    this.declaredSince = now;
    this.declaredCores = cores;
  }

  /** Cores the container wants now: its program's and its shells' (a busy loop: about one). */
  demandCores(): number {
    return this.declaredCores + this.cpu.cores();
  }

  /** The cgroup's CPU accounting up to now: demand since the last call, capped by cpu.max (cfs.ts). */
  cpuStat(): CfsStat {
    const now = performance.now();
    const demandMs = this.cpu.ranMs + this.declaredMs + this.declaredCores * (now - this.declaredSince);
    if (now > this.cfsAt) {
      this.cfsStat = cfsStep(this.cfsStat, (demandMs - this.cfsDemandMs) * 1000, (now - this.cfsAt) * 1000, this.cpuMax);
      this.cfsAt = now;
      this.cfsDemandMs = demandMs;
    }
    return this.cfsStat;
  }

  /** The pod-wide PID namespace this container shares, if any. */
  get pidNamespace(): PidNamespaceView | undefined {
    return this.opts.pidNamespace;
  }

  get mounts(): MountEntry[] {
    return this.opts.mounts ?? [];
  }

  /** Ports the container's programs serve, by protocol. */
  listeningPorts(): { tcp: number[]; udp: number[] } {
    const ports = (udp: boolean) =>
      [...this.listeners]
        .filter((l) => this.udpListeners.has(l) === udp)
        .map((l) => l.containerPort)
        .sort((a, b) => a - b);
    return { tcp: ports(false), udp: ports(true) };
  }

  /** The live processes by pid, with their CPU time and resident memory. */
  processes(): ProcEntry[] {
    const out: ProcEntry[] = [];
    const cpuMs = this.cpuStat().usageUsec / 1000;
    for (const [pid, t] of [...this.table].sort((a, b) => a[0] - b[0])) {
      const main = pid === 1;
      out.push({
        pid,
        // An orphan (a job of an exec that ended) is reparented to the namespace's init.
        ppid: t.ppid === 0 || this.table.has(t.ppid) ? t.ppid : 1,
        argv: t.argv,
        startedMs: t.startedMs,
        cpuMs: main ? cpuMs : 0,
        rssBytes: main ? this.memoryBytes() : PROCESS_RSS_BYTES,
        ...(this.user !== 'root' ? { user: this.user } : {}),
        ...(t.comm ? { comm: t.comm } : {}),
      });
    }
    return out;
  }

  /** Forgets the oldest finished jobs beyond MAX_FINISHED_JOBS. */
  private pruneJobs(): void {
    let excess = [...this.jobs.values()].filter((j) => j.exitCode !== undefined).length - MAX_FINISHED_JOBS;
    for (const j of this.jobs.values()) {
      if (excess <= 0) break;
      if (j.exitCode === undefined) continue;
      this.jobs.delete(j.pid);
      this.parents.delete(j.pid);
      excess--;
    }
  }

  /**
   * `wait [pid|%N ...]`: with no operand waits for all of the shell's jobs
   * (status 0), else returns the last operand's status. In PID 1 a trapped
   * TERM cuts it short with 143; the trap runs right after.
   */
  private async waitCommand(args: string[], ctx: CommandContext): Promise<Result> {
    const owner = Number(args[0]);
    const operands = args.slice(1).filter((a) => a !== '--');
    const mine = () => [...this.jobs.values()].filter((j) => j.owner === owner);
    const term = owner === 1 ? this.termArrived.signal : undefined;
    const interrupted = () => term?.aborted || (owner === 1 && this.termPending);
    if (interrupted()) return ok('', WAIT_INTERRUPTED);
    // The wait ends early when the waiting shell is aborted (exec timeout), a trapped TERM comes or the container dies.
    const until = (p: Promise<unknown>) => untilAborted(p, this.jobsCtl.signal, ctx.signal, term);
    if (operands.length === 0) {
      for (;;) {
        const running = mine().filter((j) => j.exitCode === undefined);
        if (running.length === 0 || this.exit || ctx.signal?.aborted) return ok();
        await until(Promise.all(running.map((j) => j.done)));
        if (interrupted()) return ok('', WAIT_INTERRUPTED);
      }
    }
    let status = 0;
    let stderr = '';
    for (const op of operands) {
      let job: Job | undefined;
      if (/^%(\d+)$/.test(op)) job = mine()[Number(op.slice(1)) - 1];
      else if (op === '%%' || op === '%+') job = mine().at(-1);
      else if (/^\d+$/.test(op)) {
        job = this.jobs.get(Number(op));
        if (!job || job.owner !== owner) {
          stderr += `sh: wait: pid ${op} is not a child of this shell\n`;
          status = 127;
          continue;
        }
      } else {
        stderr += `sh: wait: \`${op}': not a pid or valid job spec\n`;
        status = 2;
        continue;
      }
      if (!job) {
        stderr += `sh: wait: ${op}: no such job\n`;
        status = 127;
        continue;
      }
      await until(job.done);
      if (job.exitCode === undefined && interrupted()) return ok('', WAIT_INTERRUPTED, stderr);
      status = job.exitCode ?? 137;
    }
    return ok('', status, stderr);
  }

  /**
   * `kill [-s SIG | -SIG] PID...` for the container's processes: a job ends
   * with 128+SIG; PID 1 only reacts to TERM (its trap or program handler) as
   * the kernel drops other signals to a namespace's init that has no handler.
   */
  private async killCommand(args: string[]): Promise<Result> {
    let sig = SIGNALS.TERM!;
    const pids: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-l' || a === '-L') return ok(`${Object.keys(SIGNALS).join(' ')}\n`);
      const name = a === '-s' || a === '-n' ? (args[++i] ?? '') : a.startsWith('-') && a !== '--' && pids.length === 0 ? a.slice(1) : undefined;
      if (name !== undefined) {
        const n = /^\d+$/.test(name) ? Number(name) : SIGNALS[name.toUpperCase().replace(/^SIG/, '')];
        if (n === undefined) return ok('', 1, `sh: kill: ${name}: invalid signal specification\n`);
        sig = n;
      } else if (a !== '--') pids.push(a);
    }
    if (pids.length === 0) return ok('', 2, 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n');
    let status = 0;
    let stderr = '';
    for (const p of pids) {
      const pid = Number(p);
      const job = this.jobs.get(pid);
      if (pid === 1 && !this.exit) {
        if (sig === SIGNALS.TERM) this.term();
      } else if (job && job.exitCode === undefined) {
        if (sig !== 0) job.ctl.abort(128 + sig);
      } else {
        stderr += /^\d+$/.test(p) ? `sh: kill: (${p}) - No such process\n` : `sh: kill: ${p}: arguments must be process or job IDs\n`;
        status = 1;
      }
    }
    return ok('', status, stderr);
  }

  /** `trap [-p]` prints shell `owner`'s TERM trap as dash does; `trap ACTION|-|'' SIG...` and `trap N...` set or reset it. Other signals are accepted and never come. */
  private trapCommand(owner: number, args: string[]): Result {
    const action = this.traps.get(owner);
    if (args.length === 0 || args[0] === '-p') return ok(action !== undefined ? `trap -- ${quoteArg(action)} TERM\n` : '');
    const operands = args[0] === '--' ? args.slice(1) : args;
    // A first operand that is a number is a condition: all of them go back to the default.
    const reset = /^\d+$/.test(operands[0] ?? '');
    const [first, ...signals] = reset ? ['-', ...operands] : operands;
    if (signals.some((s) => TERM_NAMES.has(s.toUpperCase()))) {
      if (first === '-') this.traps.delete(owner);
      else this.traps.set(owner, first ?? '');
    }
    return ok();
  }

  /**
   * `__kubelab_trap_point STATUS`, after each command of PID 1's script: when
   * a trapped TERM is due or STATUS is not 0, fails after setting what the
   * shell then evals: the action (with `$?` as before it) and STATUS back.
   */
  private async trapPoint(status: number, ctx: CommandContext): Promise<Result> {
    const action = this.termPending ? this.traps.get(1) : undefined;
    this.termPending = false;
    if (!action && status === 0) return ok();
    const restore = `${STATUS_COMMAND} ${status} && :`;
    await ctx.assignShellVariable?.(TRAP_EVAL_VAR, action ? `${restore}\n${shellScript(action, 1, true, false, true)}\n${restore}` : restore);
    return ok('', 1);
  }
}
