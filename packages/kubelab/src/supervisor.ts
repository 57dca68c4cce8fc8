// Runs the cluster's processes like a tiny init system: starts them (in the
// order start-plan.ts gives), waits for each one's health endpoint, keeps a
// pid file per process, and stops them all (TERM, then KILL) on shutdown. It never restarts a process
// on its own, so killing a kubelet shows the NotReady node as in the seed lab.
// A node's containerd, kubelet and kube-proxy run as that node's systemd units
// (@kubelab/systemd): journal, unit state and a control socket under the node
// root, so `systemctl start kubelet` in the node shell brings a killed one back.

import { getText, type ClientTlsFiles } from './http-get.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { setPriority } from 'node:os';
import { nodeUnit, ServiceManager } from '@kubelab/systemd';
import type { ComponentSpec } from './topology.js';

/** The control plane's processes the runner starts again when they exit (their static pods' restartPolicy Always). */
export const RESTARTED_STATIC_PODS: ReadonlySet<string> = new Set(['scheduler', 'controller-manager']);

/**
 * The kubelet's back-off for restarting a container that exited: 10 s,
 * doubling to 5 min; a process that ran 10 min since its last start begins
 * at 10 s again (upstream's backOffPeriod, MaxContainerBackOff and reset).
 */
export class RestartBackOff {
  private readonly state = new Map<string, { delayMs: number; startedAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly initialMs = 10_000,
    private readonly maxMs = 300_000,
  ) {}

  /** The delay before the next start of `name`. */
  next(name: string): number {
    const s = this.state.get(name);
    const fresh = !s || this.now() - s.startedAt >= 2 * this.maxMs;
    const delayMs = fresh ? this.initialMs : Math.min(s.delayMs * 2, this.maxMs);
    this.state.set(name, { delayMs, startedAt: s?.startedAt ?? this.now() });
    return delayMs;
  }

  /** `name` was started again now. */
  started(name: string): void {
    const s = this.state.get(name);
    if (s) s.startedAt = this.now();
  }
}

export interface Running {
  spec: ComponentSpec;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
}

export interface SupervisorOptions {
  stateDir: string;
  /** Resolves the command for a spec: [executable, ...leading args]. */
  command(spec: ComponentSpec): string[];
  onExit(r: Running, code: number | null, signal: NodeJS.Signals | null): void;
  /** A unit started again through its control socket (`systemctl start`). */
  onRestart?(r: Running): void;
}

export class Supervisor {
  private readonly running = new Map<string, Running>();
  private readonly units = new Map<string, { mgr: ServiceManager; log: WriteStream }>();
  private stopping = false;

  constructor(private readonly opts: SupervisorOptions) {
    mkdirSync(this.runDir, { recursive: true });
    mkdirSync(this.logDir, { recursive: true });
  }

  get runDir(): string {
    return join(this.opts.stateDir, 'run');
  }
  get logDir(): string {
    return join(this.opts.stateDir, 'logs');
  }

  pidFile(name: string): string {
    return join(this.runDir, `${name}.pid`);
  }

  async start(spec: ComponentSpec, extraArgs: string[] = []): Promise<Running | undefined> {
    const [exe, ...lead] = this.opts.command(spec);
    const argv = [exe!, ...lead, ...spec.args, ...extraArgs];
    const logFile = join(this.logDir, `${spec.name}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    const env = { ...process.env, KUBELAB_LOG_FORMAT: process.env.KUBELAB_LOG_FORMAT ?? 'text', ...spec.env };
    if (!spec.unit) {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env });
      if (spec.nice !== undefined && child.pid) {
        try {
          setPriority(child.pid, spec.nice);
        } catch {
          // Not permitted (a lower nice needs privileges): it runs at the runner's.
        }
      }
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
      return this.track(spec, child, logFile, () => log.end());
    }
    // The node's unit: its manager journals the lines and passes them on to the log file.
    const { node, root, name } = spec.unit;
    const mgr = new ServiceManager({
      root,
      hostname: node,
      unit: nodeUnit(name, argv.join(' ')),
      command: argv,
      env: { ...env, KUBELAB_NODE_ROOT: root, KUBELAB_NODE_NAME: node },
      output: log,
      stopTimeoutMs: 5000,
    });
    let first: Running | undefined;
    mgr.on('start', (child) => {
      const r = this.track(spec, child, logFile);
      if (first) this.opts.onRestart?.(r);
      first ??= r;
    });
    this.units.set(spec.name, { mgr, log });
    await mgr.listen();
    await mgr.start();
    return first;
  }

  /** Keeps a pid file and the running entry while the process lives. */
  private track(spec: ComponentSpec, child: ChildProcess, logFile: string, onEnd?: () => void): Running {
    if (child.pid) writeFileSync(this.pidFile(spec.name), `${child.pid}\n`);
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code, signal) => {
        rmSync(this.pidFile(spec.name), { force: true });
        this.running.delete(spec.name);
        onEnd?.();
        if (!this.stopping) this.opts.onExit(r, code, signal);
        resolve(code);
      });
      child.once('error', () => resolve(null));
    });
    const r: Running = { spec, child, logFile, exited };
    this.running.set(spec.name, r);
    return r;
  }

  get(name: string): Running | undefined {
    return this.running.get(name);
  }

  /** The last lines a component wrote, for error messages. */
  tail(name: string, lines = 15): string {
    try {
      const text = readFileSync(join(this.logDir, `${name}.log`), 'utf8');
      return text.trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** Stops every process, newest first: TERM, then KILL after the grace period. */
  async stopAll(graceMs = 5000): Promise<void> {
    this.stopping = true;
    for (const { mgr } of this.units.values()) await mgr.close();
    const all = [...this.running.values()].reverse();
    for (const r of all) {
      const unit = this.units.get(r.spec.name);
      if (unit) {
        // systemd's stop (TERM, KILL after the unit's TimeoutStopSec), then the node's end for what the unit left (containerd's shims).
        await unit.mgr.shutdown(graceMs);
        continue;
      }
      r.child.kill('SIGTERM');
      const timer = setTimeout(() => r.child.kill('SIGKILL'), graceMs);
      await r.exited;
      clearTimeout(timer);
    }
    for (const { log } of this.units.values()) log.end();
  }
}

/** Polls an HTTP URL until it answers 2xx, the process dies, or time runs out. */
export async function waitHealthy(url: string, timeoutMs: number, dead: () => boolean, opts: { tls?: ClientTlsFiles; insecure?: boolean } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (dead()) throw new Error('process exited');
    try {
      const res = await getText(url, { timeoutMs: 1000, ...opts });
      if (res.status >= 200 && res.status < 300) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms (${last})`);
}
