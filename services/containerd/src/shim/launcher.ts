// containerd's side of its shims: a sandbox's shim is a virtual one in the
// node's shim host (shim/main.ts, one detached process in a session of its
// own, so it outlives containerd), started with the first sandbox and found
// again by a containerd that starts later (its control socket); the shims a
// previous containerd left are found by their task directories; and the
// Tasks interface over a shim's socket (ShimTasks).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TaskStartError, type Ports, type ShimLauncher, type TaskEvents, type TaskExit, type TaskSpec, type TaskStatus, type TaskUsage, type Tasks } from '../tasks.js';
import type { ExecOutcome } from '../process.js';
import type { AttachRequest, ExecRequest } from '../streaming/server.js';
import { dial, RpcClient, type Event } from './rpc.js';
import { HOST_EXITING, SHIM_BINARY, hostArgs, hostDir, hostSocket, shimSocket, taskDir, taskRoot, type ShimOptions } from './paths.js';
import type { HostOptions } from './main.js';

export interface LauncherOptions {
  /** containerd's state directory (/run/containerd). */
  stateDir: string;
  /** containerd's socket, passed to the shim host as -address. */
  address: string;
  networkMode: ShimOptions['networkMode'];
  timeScale: number;
  streamServerAddress: string;
  /** The node's socket-LB directory, handed to the shim host (loopback mode's pod network). */
  socketLbDir?: string;
  /** How long the shim host may take to say it is ready, and to set up a sandbox's shim (Create). */
  startTimeoutMs?: number;
  /** The shim host program (default: dist/shim/main.js beside this module). */
  shimScript?: string;
}

/** The shim host's entry: this package's dist/shim/main.js, also when this module runs from src (tests). */
export function defaultShimScript(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? join(dirname(here), '..', '..', 'dist', 'shim', 'main.js') : join(dirname(here), 'main.js');
}

export class Launcher implements ShimLauncher {
  /** The connection to the shim host's control socket (starting, or up). */
  private host: Promise<RpcClient> | undefined;

  constructor(private readonly opts: LauncherOptions) {}

  pid(id: string): number | undefined {
    try {
      const pid = Number(readFileSync(join(taskDir(this.opts.stateDir, id), 'shim.pid'), 'utf8'));
      return pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  async start(id: string, podIp: string, events: TaskEvents): Promise<Tasks> {
    const dir = taskDir(this.opts.stateDir, id);
    const socket = shimSocket(this.opts.stateDir, this.opts.address, id);
    this.makeDir(dir);
    const options: ShimOptions = {
      socket,
      podIp,
      networkMode: this.opts.networkMode,
      timeScale: this.opts.timeScale,
      streamServerAddress: this.opts.streamServerAddress,
      ...(this.opts.socketLbDir ? { socketLbDir: this.opts.socketLbDir } : {}),
    };
    writeFileSync(join(dir, 'options.json'), JSON.stringify(options));
    try {
      // A host that was exiting as we asked (its last sandbox just ended) answers no more: a new one does.
      for (let attempt = 0; ; attempt++) {
        const host = await this.hostClient();
        try {
          // Bounded as the host's own start is: a host that stops answering fails this sandbox's start (the kubelet retries) instead of holding it forever.
          await host.call('Create', { id }, this.opts.startTimeoutMs ?? 15000);
          break;
        } catch (err) {
          if (attempt > 0 || !(host.closed || (err as Error).message === HOST_EXITING)) throw err;
          host.socket.destroy();
        }
      }
      return await ShimTasks.connect(socket, events);
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The task root and the sockets' directory are made once: a sandbox's start costs one mkdir (its task directory). */
  private rootsMade = false;
  private makeDir(dir: string): void {
    if (!this.rootsMade) {
      mkdirSync(taskRoot(this.opts.stateDir), { recursive: true });
      mkdirSync(dirname(shimSocket(this.opts.stateDir, this.opts.address, '')), { recursive: true });
      this.rootsMade = true;
    }
    try {
      mkdirSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      if (code !== 'ENOENT') throw err;
      // The state directory was wiped under us: make it again.
      this.rootsMade = false;
      this.makeDir(dir);
    }
  }

  /** The shim host: the one already running (a previous containerd's), else a new one. */
  private hostClient(): Promise<RpcClient> {
    const have = this.host;
    if (have) return have.then((c) => (c.closed ? this.reconnect(have) : c));
    return this.reconnect(undefined);
  }

  private reconnect(stale: Promise<RpcClient> | undefined): Promise<RpcClient> {
    if (this.host !== stale) return this.hostClient();
    const next = this.connectHost().catch(async () => {
      await this.spawnHost();
      return this.connectHost();
    });
    this.host = next;
    next.catch(() => {
      if (this.host === next) this.host = undefined;
    });
    return next;
  }

  private async connectHost(): Promise<RpcClient> {
    const socket = await dial(hostSocket(this.opts.stateDir, this.opts.address));
    const client: RpcClient = new RpcClient(
      socket,
      () => {},
      () => {},
    );
    return client;
  }

  /** Starts the shim host and waits for it to say it is ready. */
  private async spawnHost(): Promise<void> {
    const dir = hostDir(this.opts.stateDir);
    const socket = hostSocket(this.opts.stateDir, this.opts.address);
    mkdirSync(dir, { recursive: true });
    mkdirSync(dirname(socket), { recursive: true });
    const options: HostOptions = {
      stateDir: this.opts.stateDir,
      socket,
      networkMode: this.opts.networkMode,
      timeScale: this.opts.timeScale,
      streamServerAddress: this.opts.streamServerAddress,
      ...(this.opts.socketLbDir ? { socketLbDir: this.opts.socketLbDir } : {}),
    };
    writeFileSync(join(dir, 'host.json'), JSON.stringify(options));
    const logFd = openSync(join(dir, 'log'), 'a');
    const script = this.opts.shimScript ?? defaultShimScript();
    // KUBELAB_SHIM_NODE_ARGS: Node.js flags for the shim host (the benches' --cpu-prof).
    const nodeArgs = process.env.KUBELAB_SHIM_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, script, ...hostArgs(this.opts.address)], {
      argv0: SHIM_BINARY,
      cwd: dir,
      // Its own session: a signal to containerd's process group (or its death) leaves it.
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
    });
    closeSync(logFd);
    const timeoutMs = this.opts.startTimeoutMs ?? 15000;
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`shim did not start within ${timeoutMs} ms`)), timeoutMs);
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
      // The shim dies as of a kill -9 (its containers with it); its directory goes now either way.
      void signalShim(shimSocket(this.opts.stateDir, this.opts.address, id), 'SIGKILL').catch(() => {});
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

/** A signal to a sandbox's (virtual) shim over its socket: what the node's kill of its pid does. */
export async function signalShim(socket: string, signal: string | number): Promise<{ effect: string }> {
  const client = new RpcClient(
    await dial(socket),
    () => {},
    () => {},
  );
  try {
    return await client.call<{ effect: string }>('Signal', { signal });
  } finally {
    client.socket.end();
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
  private closing = false;

  private constructor(
    private readonly rpc: RpcClient,
    private readonly events: TaskEvents,
  ) {}

  static async connect(path: string, events: TaskEvents): Promise<ShimTasks> {
    const socket = await dial(path);
    let tasks: ShimTasks | undefined = undefined;
    const rpc = new RpcClient(
      socket,
      (e) => tasks?.onEvent(e),
      () => {
        if (tasks && !tasks.closing) events.lost();
      },
      (e) => (e.kind === 'TaskStartError' ? new TaskStartError(e.message) : new Error(e.message)),
    );
    tasks = new ShimTasks(rpc, events);
    return tasks;
  }

  private onEvent(e: Event): void {
    if (e.event === 'exit') {
      const p = e.params as { id: string; exit: TaskExit };
      this.events.exit(p.id, p.exit);
    } else if (e.event === 'ports') this.events.ports(e.params as Ports);
  }

  private call<T>(method: string, params?: unknown): Promise<T> {
    return this.rpc.call<T>(method, params);
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
    this.rpc.socket.end();
  }
  async close(): Promise<void> {
    this.closing = true;
    this.rpc.socket.end();
  }
}
