// A container's main process, simulated: its argv runs in a just-bash shell
// over a per-container in-memory filesystem seeded from the image. Output
// streams to the CRI log; ExecSync runs further commands on the same
// filesystem. Signals follow PID-1 rules: TERM is ignored unless the process
// traps it (`trap '...' TERM`) or is a program that handles it (nginx, pause);
// KILL always ends it with 137. Time inside the container runs `timeScale`
// times faster than wall time (sleep 30 takes 30/timeScale seconds).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Bash, InMemoryFs, defineCommand, getCommandNames, type BashExecResult, type FileContent } from 'just-bash';
import type { Listener } from './network.js';
import { programsFor } from './programs.js';
import { STDERR_PATH, STDOUT_PATH, argvToScript, basename, quoteArg, streamingScript } from './shell.js';
import type { Stream } from './logs.js';
import { nowNanos } from './time.js';

// Captured before any script runs: just-bash's defence layer may patch globals.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

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
  output: (stream: Stream, text: string) => void;
  /** Serves a container port (see network.ts). */
  listen: (port: number, handler: (req: IncomingMessage, res: ServerResponse) => void) => Promise<Listener>;
}

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

const SHELL_BUILTINS = new Set(['exec', 'exit', 'true', 'false', 'trap', 'cd', 'export', 'set', 'read', 'wait', 'kill', ':', '.', 'source', 'eval', 'test', '[']);
const TERM_NAMES = new Set(['TERM', 'SIGTERM', '15']);
const FS_LIMIT_BYTES = 64 * 1024 * 1024;

/** The container filesystem: an in-memory rootfs whose /proc/1/fd/{1,2} feed the log. */
class ContainerFs extends InMemoryFs {
  writtenBytes = 0;
  constructor(
    files: Record<string, string>,
    private readonly sink: (stream: Stream, text: string) => void,
  ) {
    super(files);
  }
  private route(path: string): Stream | undefined {
    return path === STDOUT_PATH ? 'stdout' : path === STDERR_PATH ? 'stderr' : undefined;
  }
  override async appendFile(path: string, content: FileContent, options?: Parameters<InMemoryFs['appendFile']>[2]): Promise<void> {
    const stream = this.route(path);
    if (stream) {
      this.sink(stream, typeof content === 'string' ? content : Buffer.from(content).toString('utf8'));
      return;
    }
    this.writtenBytes += content.length;
    return super.appendFile(path, content, options);
  }
  override async writeFile(path: string, content: FileContent, options?: Parameters<InMemoryFs['writeFile']>[2]): Promise<void> {
    if (this.route(path)) return this.appendFile(path, content);
    this.writtenBytes += content.length;
    return super.writeFile(path, content, options);
  }
}

export class SimProcess {
  readonly fs: ContainerFs;
  readonly bash: Bash;
  exit: ExitInfo | undefined;
  startedAt: bigint | undefined;
  /** Extra memory a program allocated (memhog), on top of the image's baseline. */
  allocatedBytes = 0;
  /** CPU the program burns, in cores. */
  cpuCores = 0.001;
  memoryLimitBytes: number;

  private readonly main = new AbortController();
  private killedResolve!: () => void;
  /** Resolves when the process is killed (KILL, OOM): long-running programs race against it. */
  readonly killed: Promise<void> = new Promise((r) => (this.killedResolve = r));
  private trap: string | undefined;
  private readonly termHandlers = new Set<() => void>();
  private forced: Omit<ExitInfo, 'finishedAt'> | undefined;
  /** A TERM trap is running: the aborted main script's end is not the process's end. */
  private trapping = false;
  private exitedResolve!: (e: ExitInfo) => void;
  readonly exited: Promise<ExitInfo> = new Promise((r) => (this.exitedResolve = r));
  private readonly listeners = new Set<Listener>();

  constructor(private readonly opts: ProcessOptions) {
    this.memoryLimitBytes = opts.memoryLimitBytes;
    this.fs = new ContainerFs(opts.files, (s, t) => this.write(s, t));
    const programs = programsFor(opts.programs, this);
    const trap = defineCommand('trap', async (args) => this.trapCommand(args));
    this.bash = new Bash({
      fs: this.fs,
      cwd: opts.cwd,
      env: opts.env,
      // The scripts are pod commands in an interpreter without host access;
      // the defence layer would patch process globals the server needs.
      defenseInDepth: false,
      sleep: (ms) => this.sleep(ms),
      customCommands: [trap, ...programs],
      executionLimits: {
        maxExecutionTimeMs: Number.POSITIVE_INFINITY,
        maxLoopIterations: Number.MAX_SAFE_INTEGER,
        maxCommandCount: Number.MAX_SAFE_INTEGER,
        maxFileSystemBytes: FS_LIMIT_BYTES,
      },
      processInfo: { pid: 1, ppid: 0, uid: 0, gid: 0 },
    });
  }

  write(stream: Stream, text: string): void {
    if (text) this.opts.output(stream, text);
  }

  get timeScale(): number {
    return this.opts.timeScale;
  }

  /** Sleeps `ms` of container time; ends early when the process is killed. */
  sleep(ms: number): Promise<void> {
    const real = ms / this.opts.timeScale;
    return new Promise<void>((resolve) => {
      const t = realSetTimeout(resolve, real);
      void this.killed.then(() => {
        realClearTimeout(t);
        resolve();
      });
    });
  }

  /** Registers a program's TERM handler (nginx quits gracefully); returns an unregister function. */
  onTerm(handler: () => void): () => void {
    this.termHandlers.add(handler);
    return () => this.termHandlers.delete(handler);
  }

  /** Serves a container port for a program; closed when the process exits. */
  async listen(port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listener> {
    const l = await this.opts.listen(port, handler);
    this.listeners.add(l);
    return l;
  }

  async unlisten(l: Listener): Promise<void> {
    this.listeners.delete(l);
    await l.close();
  }

  /** Starts the main process; throws StartError when argv[0] is not in the image. */
  start(): void {
    let argv = this.opts.argv;
    if (argv.length === 0) throw new StartError('failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: no command specified: unknown');
    let prelude = '';
    if (basename(argv[0]!) === 'docker-entrypoint.sh' && this.opts.programs.includes('docker-entrypoint.sh')) {
      prelude = 'echo "/docker-entrypoint.sh: Configuration complete; ready for start up"\n';
      argv = argv.slice(1);
    }
    const name = argv.length ? basename(argv[0]!) : '';
    if (argv.length && !this.commandExists(name)) {
      throw new StartError(
        `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "${argv[0]}": executable file not found in $PATH: unknown`,
      );
    }
    const script = streamingScript(prelude + argvToScript(argv));
    this.startedAt = nowNanos();
    this.bash
      .exec(script, { signal: this.main.signal })
      .then(
        (r) => this.finish(r),
        (err: unknown) => this.finish({ stdout: '', stderr: `${(err as Error).message}\n`, exitCode: 1 } as BashExecResult),
      );
  }

  private commandExists(name: string): boolean {
    return SHELL_BUILTINS.has(name) || this.opts.programs.includes(name) || (getCommandNames() as string[]).includes(name) || name === 'sh' || name === 'bash';
  }

  private finish(r: Pick<BashExecResult, 'stdout' | 'stderr' | 'exitCode'>): void {
    if (this.exit) return;
    if (this.trapping && !this.forced) return;
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
    for (const l of this.listeners) void l.close();
    this.listeners.clear();
    this.killedResolve();
    this.exitedResolve(this.exit);
  }

  /** SIGTERM: the trap or a program handler runs; otherwise PID 1 ignores it. */
  term(): void {
    if (this.exit) return;
    if (this.trap !== undefined) {
      if (this.trap === '') return;
      const handler = this.trap;
      this.trapping = true;
      this.main.abort();
      void this.bash.exec(streamingScript(handler)).then(
        (r) => this.forceExit(r.exitCode, r.exitCode === 0 ? 'Completed' : 'Error', '', r),
        () => this.forceExit(143, 'Error', ''),
      );
      return;
    }
    for (const h of [...this.termHandlers]) h();
  }

  /** SIGKILL: exit 137 at once. */
  kill(): void {
    this.forceExit(137, 'Error', '');
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
    const script = argvToScript(argv);
    const run = this.bash.exec(script, { signal: ctl.signal }).then(
      (r) => ({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, timedOut: false }),
      (err: unknown) => ({ stdout: '', stderr: `${(err as Error).message}\n`, exitCode: 1, timedOut: false }),
    );
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

  /** Memory in use: image baseline, program allocations and files written. */
  memoryBytes(): number {
    return this.opts.baseMemoryBytes + this.allocatedBytes + this.fs.writtenBytes;
  }

  private async trapCommand(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    if (args.length === 0 || args[0] === '-p' || args[0] === '-l') return { stdout: this.trap !== undefined ? `trap -- ${quoteArg(this.trap)} SIGTERM\n` : '', stderr: '', exitCode: 0 };
    const [action, ...signals] = args;
    if (signals.some((s) => TERM_NAMES.has(s.toUpperCase()))) this.trap = action === '-' ? undefined : action;
    return { stdout: '', stderr: '', exitCode: 0 };
  }
}
