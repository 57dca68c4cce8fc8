// containerd's side of its shims: starting one per sandbox (a detached
// process in a session of its own, so it outlives containerd), finding the
// ones a previous containerd left (their task directories), and the Tasks
// interface over a shim's socket (ShimTasks).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TaskStartError, type Ports, type ShimLauncher, type TaskEvents, type TaskExit, type TaskSpec, type TaskStatus, type TaskUsage, type Tasks } from '../tasks.js';
import type { ExecOutcome } from '../process.js';
import type { AttachRequest, ExecRequest } from '../streaming/server.js';
import { readLines, send, type Event, type Response } from './rpc.js';
import { SHIM_BINARY, shimArgs, shimSocket, taskDir, taskRoot, type ShimOptions } from './paths.js';

export interface LauncherOptions {
  /** containerd's state directory (/run/containerd). */
  stateDir: string;
  /** containerd's socket, passed to the shim as -address. */
  address: string;
  networkMode: ShimOptions['networkMode'];
  timeScale: number;
  streamServerAddress: string;
  /** The node's socket-LB directory, handed to each shim (loopback mode's pod network). */
  socketLbDir?: string;
  /** How long a shim may take to say it is ready. */
  startTimeoutMs?: number;
  /** The shim program (default: dist/shim/main.js beside this module). */
  shimScript?: string;
}

/** The shim's entry: this package's dist/shim/main.js, also when this module runs from src (tests). */
export function defaultShimScript(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? join(dirname(here), '..', '..', 'dist', 'shim', 'main.js') : join(dirname(here), 'main.js');
}

export class Launcher implements ShimLauncher {
  /** Shims starting now, and the starts waiting for one of them to be ready. */
  private starting = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly opts: LauncherOptions) {}

  /**
   * A shim is a Node.js process whose start takes a few hundred ms of CPU: a
   * burst of sandboxes starts them a few at a time (one per core), so each is
   * ready soon after its turn and none outwaits its start timeout while a
   * hundred share the cores.
   */
  private async turn(): Promise<() => void> {
    if (this.starting >= Math.max(2, availableParallelism())) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.starting++;
    return () => {
      const next = this.queue.shift();
      if (next) next();
      else this.starting--;
    };
  }

  pid(id: string): number | undefined {
    try {
      const pid = Number(readFileSync(join(taskDir(this.opts.stateDir, id), 'shim.pid'), 'utf8'));
      return pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  async start(id: string, podIp: string, events: TaskEvents): Promise<Tasks> {
    const done = await this.turn();
    try {
      await this.spawn(id, podIp);
    } finally {
      done();
    }
    return ShimTasks.connect(shimSocket(this.opts.stateDir, this.opts.address, id), events);
  }

  /** Starts the sandbox's shim and waits for it to say it is ready. */
  private async spawn(id: string, podIp: string): Promise<void> {
    const dir = taskDir(this.opts.stateDir, id);
    const socket = shimSocket(this.opts.stateDir, this.opts.address, id);
    mkdirSync(dir, { recursive: true });
    mkdirSync(dirname(socket), { recursive: true });
    const options: ShimOptions = {
      socket,
      podIp,
      networkMode: this.opts.networkMode,
      timeScale: this.opts.timeScale,
      streamServerAddress: this.opts.streamServerAddress,
      ...(this.opts.socketLbDir ? { socketLbDir: this.opts.socketLbDir } : {}),
    };
    writeFileSync(join(dir, 'options.json'), JSON.stringify(options));
    const logFd = openSync(join(dir, 'log'), 'a');
    const script = this.opts.shimScript ?? defaultShimScript();
    // One process per pod: a small young generation saves about 20 MB of RSS per shim.
    // KUBELAB_SHIM_NODE_ARGS: Node.js flags for every shim (the benches' --cpu-prof).
    const nodeArgs = process.env.KUBELAB_SHIM_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, ['--max-semi-space-size=1', ...nodeArgs, script, ...shimArgs(id, this.opts.address)], {
      argv0: SHIM_BINARY,
      cwd: dir,
      // Its own session: a signal to containerd's process group (or its death) leaves it.
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
    });
    closeSync(logFd);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`shim did not start within ${this.opts.startTimeoutMs ?? 15000} ms`)), this.opts.startTimeoutMs ?? 15000);
        let out = '';
        child.stdout!.setEncoding('utf8');
        child.stdout!.on('data', (d: string) => {
          out += d;
          if (out.includes('\n')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`shim exited with ${signal ?? `code ${code}`}: ${tail(join(dir, 'log'))}`));
        });
      });
    } catch (err) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    child.stdout!.destroy();
    child.removeAllListeners('exit');
    child.unref();
  }

  cleanup(known: Set<string>): string[] {
    const gone: string[] = [];
    for (const id of taskIds(this.opts.stateDir)) {
      if (known.has(id)) continue;
      const dir = taskDir(this.opts.stateDir, id);
      try {
        process.kill(Number(readFileSync(join(dir, 'shim.pid'), 'utf8')), 'SIGKILL');
      } catch {
        // Already gone.
      }
      rmSync(dir, { recursive: true, force: true });
      gone.push(id);
    }
    return gone;
  }

  async connect(id: string, events: TaskEvents): Promise<Tasks | undefined> {
    const dir = taskDir(this.opts.stateDir, id);
    const addressFile = join(dir, 'address');
    if (!existsSync(addressFile)) return undefined;
    const socket = readFileSync(addressFile, 'utf8')
      .trim()
      .replace(/^unix:\/\//, '');
    try {
      return await ShimTasks.connect(socket, events);
    } catch {
      // The shim died with its bundle left behind (the node was killed): nothing to adopt.
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
  }
}

/** The sandbox ids with a task directory. */
function taskIds(stateDir: string): string[] {
  try {
    return readdirSync(taskRoot(stateDir));
  } catch {
    return [];
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return '';
  }
}

/** A sandbox's tasks in its shim, over the shim's socket. */
export class ShimTasks implements Tasks {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private closing = false;

  private constructor(
    private readonly socket: Socket,
    private readonly events: TaskEvents,
  ) {
    readLines(socket, (m) => {
      if ('event' in m) return this.onEvent(m);
      const r = m as Response;
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.error) p.reject(r.error.kind === 'TaskStartError' ? new TaskStartError(r.error.message) : new Error(r.error.message));
      else p.resolve(r.result);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('ttrpc: closed'));
      this.pending.clear();
      if (!this.closing) events.lost();
    });
  }

  static connect(path: string, events: TaskEvents): Promise<ShimTasks> {
    return new Promise((resolve, reject) => {
      const s = connect(path);
      s.once('connect', () => {
        s.removeListener('error', reject);
        resolve(new ShimTasks(s, events));
      });
      s.once('error', reject);
    });
  }

  private onEvent(e: Event): void {
    if (e.event === 'exit') {
      const p = e.params as { id: string; exit: TaskExit };
      this.events.exit(p.id, p.exit);
    } else if (e.event === 'ports') this.events.ports(e.params as Ports);
  }

  private call<T>(method: string, params?: unknown): Promise<T> {
    if (this.socket.destroyed) return Promise.reject(new Error('ttrpc: closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      send(this.socket, { id, method, params });
    });
  }

  start(spec: TaskSpec): Promise<{ startedAt: string }> {
    return this.call('Start', spec);
  }
  kill(id: string, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    return this.call('Kill', { id, signal });
  }
  execSync(id: string, cmd: string[], timeoutMs: number): Promise<ExecOutcome> {
    return this.call('Exec', { id, cmd, timeoutMs });
  }
  async usage(id: string): Promise<TaskUsage | undefined> {
    return (await this.call<TaskUsage | null>('Stats', { id })) ?? undefined;
  }
  update(id: string, memoryLimitBytes: number): Promise<void> {
    return this.call('Update', { id, memoryLimitBytes });
  }
  reopenLog(id: string): Promise<void> {
    return this.call('ReopenLog', { id });
  }
  state(): Promise<{ tasks: TaskStatus[]; ports: Ports }> {
    return this.call('State');
  }
  delete(id: string): Promise<void> {
    return this.call('Delete', { id });
  }
  /** A one-time Exec or Attach URL of the shim's streaming server. */
  streamUrl(p: { kind: 'exec'; req: ExecRequest } | { kind: 'attach'; req: AttachRequest }): Promise<string> {
    return this.call('StreamUrl', p);
  }
  async shutdown(): Promise<void> {
    await this.call('Shutdown');
    this.closing = true;
    this.socket.end();
  }
  async close(): Promise<void> {
    this.closing = true;
    this.socket.end();
  }
}
