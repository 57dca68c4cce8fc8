// One sandbox's shim inside the shim host (shim/main.ts): upstream's
// containerd-shim-runc-v2 for that sandbox, minus the process. It runs the
// sandbox's tasks (tasks.ts LocalTasks: the simulated processes, their logs
// and ports) and serves the task API (rpc.ts) on the sandbox's own socket to
// whichever containerd connects, keeps the sandbox's task directory
// (address, shim.pid, options.json, log, ps.json) and has a virtual pid.
// It ends as a shim process ends: after containerd's Shutdown once nothing
// runs (the task directory goes with it), or at once when signalled to die
// (`kill -9 <its pid>` on the node: its containers end unobserved and
// containerd sees the connection drop, as with a real shim's death).

import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { LocalTasks, TaskStartError, type LocalTasksOptions, type TaskEvents, type TaskSpec } from '../tasks.js';
import { imagePrompt, stdinShell } from '../streaming/attach.js';
import type { AttachRequest, ExecRequest, StreamingServer } from '../streaming/server.js';
import { readLines, send, type Event, type Request } from './rpc.js';
import { SHIM_BINARY, shimArgs, type ShimOptions } from './paths.js';
import { writePsFile } from './ps-file.js';
import { signalEffect } from './vpid.js';

/** What the host shares with each of its shims. */
export interface HostContext {
  hostPid: number;
  /** containerd's socket (the shims' -address). */
  address: string;
  /** The node-wide part of LocalTasks' options (route, timeScale, OOM kill logging). */
  tasks: Pick<LocalTasksOptions, 'route' | 'timeScale' | 'oomKilled'>;
  /** The host's streaming server (Exec, Attach), started with the first stream asked for. */
  streaming: () => Promise<StreamingServer>;
  /** A line of the host's log (its stderr). */
  log: (msg: string, fields?: Record<string, unknown>) => void;
  /** The shim ended (its directory is gone). */
  ended: (shim: VirtualShim) => void;
}

/** How long ps.json lags a task's start or end at most. */
const PS_FILE_DELAY_MS = 200;

export class VirtualShim {
  readonly tasks: LocalTasks;
  readonly argv: string[];
  private readonly startedMs = Date.now();
  private readonly conns = new Set<Socket>();
  private server: Server | undefined;
  private shuttingDown = false;
  private done = false;
  private readonly opts: ShimOptions;

  constructor(
    readonly id: string,
    readonly pid: number,
    /** The task directory. */
    readonly dir: string,
    private readonly host: HostContext,
  ) {
    this.argv = [SHIM_BINARY, ...shimArgs(id, host.address)];
    this.opts = JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as ShimOptions;
    const events: TaskEvents = {
      exit: (taskId, exit) => {
        this.broadcast({ event: 'exit', params: { id: taskId, exit } });
        this.psFile();
        this.maybeEnd();
      },
      ports: (ports) => this.broadcast({ event: 'ports', params: ports }),
      lost: () => {},
    };
    this.tasks = new LocalTasks(
      {
        ...host.tasks,
        podIp: this.opts.podIp,
        networkMode: this.opts.networkMode,
        shimPid: pid,
        warn: (msg, fields) => this.log(msg, { level: 'warning', ...fields }),
        mainProcess: (spec, proc) => stdinShell(spec.stdio, proc, imagePrompt(spec.image)),
      },
      events,
    );
  }

  /** The shim's log lines: JSON, as the shim process wrote them to its stderr (the task directory's `log`, made with the first line: warnings, its end). */
  log(msg: string, fields: Record<string, unknown> = {}): void {
    try {
      appendFileSync(join(this.dir, 'log'), `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg, id: this.id, ...fields })}\n`);
    } catch {
      // The task directory is gone with the shim.
    }
  }

  private broadcast(e: Event): void {
    for (const s of this.conns) send(s, e);
  }

  /** ps.json is rewritten at most every PS_FILE_DELAY_MS (a sandbox's start and its first container's make one write). */
  private psTimer: NodeJS.Timeout | undefined;
  private psFile(): void {
    if (this.psTimer || this.done) return;
    this.psTimer = setTimeout(() => {
      this.psTimer = undefined;
      if (!this.done) this.writePs();
    }, PS_FILE_DELAY_MS);
  }

  private writePs(): void {
    writePsFile(this.dir, {
      pid: this.pid,
      host: this.host.hostPid,
      argv: this.argv,
      startedMs: this.startedMs,
      tasks: this.tasks.list().map((t) => ({ id: t.id, pid: 1, argv: t.argv })),
    });
  }

  /** Serves the task API on the sandbox's socket; the task directory says where (address) and who (shim.pid). */
  async listen(): Promise<void> {
    const server = createServer((socket) => this.serve(socket));
    this.server = server;
    rmSync(this.opts.socket, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.socket, () => resolve());
    });
    writeFileSync(join(this.dir, 'address'), `unix://${this.opts.socket}`);
    writeFileSync(join(this.dir, 'shim.pid'), String(this.pid));
    this.psFile();
  }

  private readonly methods: Record<string, (params: never) => Promise<unknown>> = {
    Start: async (spec: TaskSpec) => {
      const r = await this.tasks.start(spec);
      this.psFile();
      return r;
    },
    Kill: (p: { id: string; signal: 'SIGTERM' | 'SIGKILL' }) => this.tasks.kill(p.id, p.signal),
    Exec: (p: { id: string; cmd: string[]; timeoutMs: number }) => this.tasks.execSync(p.id, p.cmd, p.timeoutMs),
    Stats: (p: { id: string }) => this.tasks.usage(p.id),
    Update: (p: { id: string; memoryLimitBytes: number }) => this.tasks.update(p.id, p.memoryLimitBytes),
    ReopenLog: (p: { id: string }) => this.tasks.reopenLog(p.id),
    State: () => this.tasks.state(),
    Delete: (p: { id: string }) => this.tasks.delete(p.id),
    StreamUrl: async (p: { kind: 'exec'; req: ExecRequest } | { kind: 'attach'; req: AttachRequest }) => {
      const server = await this.host.streaming();
      return p.kind === 'exec' ? server.getExec(p.req) : server.getAttach(p.req);
    },
    Shutdown: async () => {
      this.shuttingDown = true;
      await this.tasks.shutdown();
      setImmediate(() => this.maybeEnd());
    },
    // A signal to the shim's pid (the node's kill): the answer goes out before the shim dies of it.
    Signal: async (p: { signal: string | number }) => {
      const effect = signalEffect(p.signal);
      if (effect === 'exit') setImmediate(() => void this.die(String(p.signal)));
      return { effect };
    },
  };

  private serve(socket: Socket): void {
    this.conns.add(socket);
    socket.on('close', () => this.conns.delete(socket));
    socket.on('error', () => socket.destroy());
    readLines(socket, (m) => {
      const req = m as Request;
      if (typeof req.id !== 'number' || typeof req.method !== 'string') return;
      const fn = Object.hasOwn(this.methods, req.method) ? this.methods[req.method] : undefined;
      if (!fn) {
        send(socket, { id: req.id, error: { message: `method ${req.method} not implemented` } });
        return;
      }
      fn(req.params as never).then(
        (result) => send(socket, { id: req.id, result: result ?? null }),
        (err: Error) => send(socket, { id: req.id, error: { message: err.message, ...(err instanceof TaskStartError ? { kind: 'TaskStartError' } : {}) } }),
      );
    });
  }

  /** Once the sandbox is shut down and its last task ended, the shim goes (upstream: after the last Delete). */
  private maybeEnd(): void {
    if (!this.shuttingDown || this.tasks.running > 0) return;
    void this.end('shim exiting');
  }

  /** The shim's death by a signal: its containers end with it, unobserved (no exit events); containerd sees the connection drop. */
  die(signal: string): Promise<void> {
    return this.end('shim killed', { signal }, true);
  }

  /** The node going away (the host's SIGTERM): the containers end with it. */
  close(): Promise<void> {
    return this.end('shim exiting', { code: 0 });
  }

  private async end(msg: string, fields: Record<string, unknown> = {}, abrupt = false): Promise<void> {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.psTimer);
    // The task directory (and its log) goes now: the line is the host's.
    this.host.log(msg, { id: this.id, pid: this.pid, ...fields });
    // Gone at once, as a process is once its kill returns: no socket, no task directory (a containerd that starts later finds no task here, ps no shim) ...
    this.server?.close();
    rmSync(this.opts.socket, { force: true });
    rmSync(this.dir, { recursive: true, force: true });
    for (const s of this.conns)
      if (abrupt) s.destroy();
      else s.end();
    // ... and its containers with it.
    await this.tasks.close();
    this.host.ended(this);
  }

  /** A running task's process in this shim (the host's streaming server finds it by container id). */
  process(cid: string): ReturnType<LocalTasks['process']> {
    return this.tasks.process(cid);
  }

  static streamTarget(shims: Iterable<VirtualShim>, cid: string): ReturnType<LocalTasks['process']> {
    for (const s of shims) {
      const p = s.process(cid);
      if (p) return p;
    }
    return undefined;
  }
}
